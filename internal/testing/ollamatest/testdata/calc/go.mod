module example.com/calc

go 1.21
