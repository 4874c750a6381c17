module example.com/gocross

go 1.22
