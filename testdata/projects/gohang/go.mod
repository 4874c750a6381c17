module example.com/gohang

go 1.22
