// Package shootout holds the module's go.mod, embedded: test binaries carry
// no dependency list in their build info, and go.mod's requirements are the
// versions the build selects.
package shootout

import (
	_ "embed"
	"strings"
)

//go:embed go.mod
var goMod string

// Required is the version go.mod requires of module path, or "".
func Required(path string) string {
	for line := range strings.SplitSeq(goMod, "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
		if len(f) >= 2 && f[0] == path {
			return f[1]
		}
	}
	return ""
}
