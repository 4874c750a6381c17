module example.com/goflaky

go 1.22
