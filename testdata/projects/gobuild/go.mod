module example.com/gobuild

go 1.22
