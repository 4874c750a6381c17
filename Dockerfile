# agentfix outside GitHub Actions: a cron box or a Kubernetes runner next to
# the GPU. Verification needs the project's toolchain: extend this image
# (see README, "Container image").
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X github.com/agentfix/agentfix/internal/cli.Version=${VERSION}" -o /out/agentfix ./cmd/agentfix

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends git ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --create-home --uid 10001 agentfix
COPY --from=build /out/agentfix /usr/local/bin/agentfix
USER agentfix
WORKDIR /work
ENTRYPOINT ["agentfix"]
