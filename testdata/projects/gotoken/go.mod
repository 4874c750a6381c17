module example.com/gotoken

go 1.22
