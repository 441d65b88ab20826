// Stand-in container images for real nodes (docs/real-nodes.md): small static programs; the toolbox's shell is
// mvdan.cc/sh's interpreter.
module regatta.dev/images

go 1.26.0

require mvdan.cc/sh/v3 v3.14.1

require (
	golang.org/x/sys v0.47.0 // indirect
	golang.org/x/term v0.45.0 // indirect
)
