// Stand-in container images for real nodes (docs/real-nodes.md): small static programs, no dependencies.
module regatta.dev/images

go 1.26.0
