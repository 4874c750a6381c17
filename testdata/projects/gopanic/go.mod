module example.com/gopanic

go 1.22
