FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X github.com/agentfix/agentfix/internal/cli.Version=${VERSION}" -o /out/agentfix ./cmd/agentfix

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends git ca-certificates && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/agentfix /usr/local/bin/agentfix
RUN useradd --create-home --uid 10001 agentfix
USER agentfix
ENTRYPOINT ["agentfix"]
