module example.com/gobig

go 1.22
