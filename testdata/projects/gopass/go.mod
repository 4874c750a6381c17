module example.com/gopass

go 1.22
