package harness

import (
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Environment reads the machine and build cheaply; a value that cannot be
// read is nil, never an error. Keys follow the results schema; the Rust-only
// ones (rustc, rustflags, …) become their Go counterparts.
func Environment(started time.Time) map[string]any {
	env := map[string]any{}
	cpuinfo, _ := os.ReadFile("/proc/cpuinfo")
	env["cpu"] = runtime.GOARCH
	var flags []string
	for line := range strings.SplitSeq(string(cpuinfo), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "model name":
			env["cpu"] = strings.TrimSpace(v)
		case "flags", "Features":
			if flags == nil {
				flags = strings.Fields(v)
			}
		}
	}
	if cpuinfo == nil {
		env["cpu_flags"], env["constant_tsc"], env["nonstop_tsc"], env["hypervisor"] = nil, nil, nil, nil
	} else {
		has := func(f string) bool { return slices.Contains(flags, f) }
		env["cpu_flags"] = flags
		env["constant_tsc"], env["nonstop_tsc"] = has("constant_tsc"), has("nonstop_tsc")
		switch {
		case readTrim("/sys/hypervisor/type") != nil:
			env["hypervisor"] = readTrim("/sys/hypervisor/type")
		case has("hypervisor"):
			env["hypervisor"] = "unknown"
		default:
			env["hypervisor"] = nil
		}
	}
	cache := map[string]any{"l1d_bytes": nil, "l1i_bytes": nil, "l2_bytes": nil, "l3_bytes": nil}
	for i := range 8 {
		dir := "/sys/devices/system/cpu/cpu0/cache/index" + strconv.Itoa(i) + "/"
		level, kind, size := readTrim(dir+"level"), readTrim(dir+"type"), readTrim(dir+"size")
		if level == nil || kind == nil || size == nil {
			continue
		}
		key := "l" + *level
		switch {
		case *kind == "Data":
			key += "d"
		case *kind == "Instruction":
			key += "i"
		}
		if b := parseSize(*size); b != nil {
			cache[key+"_bytes"] = *b
		}
	}
	env["cache"] = cache
	env["cpufreq_governor"] = readTrim("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")
	env["memory_bytes"] = nil
	if meminfo, err := os.ReadFile("/proc/meminfo"); err == nil {
		for line := range strings.SplitSeq(string(meminfo), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemTotal:" {
				if kb, err := strconv.ParseUint(f[1], 10, 64); err == nil {
					env["memory_bytes"] = kb * 1024
				}
			}
		}
	}
	env["cores"] = runtime.NumCPU()
	env["gomaxprocs"] = runtime.GOMAXPROCS(0)
	env["os"] = osName()
	env["go_version"] = runtime.Version()
	// Every runner names its compiler or runtime here, for tables that show several languages.
	env["toolchain"] = runtime.Version()
	env["target"] = runtime.GOOS + "/" + runtime.GOARCH
	env["gc"] = os.Getenv("GOGC")
	if env["gc"] == "" {
		env["gc"] = "100 (default)"
	}
	env["gomemlimit"] = os.Getenv("GOMEMLIMIT")
	env["allocator"] = "go runtime (allocation pass counts runtime.MemStats Mallocs and TotalAlloc)"
	env["shootout_version"] = "go-runner"
	env["git_commit"], env["git_dirty"] = "unknown", nil
	env["build_settings"] = map[string]string{}
	if info, ok := debug.ReadBuildInfo(); ok {
		settings := map[string]string{}
		for _, s := range info.Settings {
			settings[s.Key] = s.Value
			switch s.Key {
			case "vcs.revision":
				env["git_commit"] = s.Value
			case "vcs.modified":
				env["git_dirty"] = s.Value == "true"
			}
		}
		env["build_settings"] = settings
		env["goamd64"] = settings["GOAMD64"]
	}
	if env["git_commit"] == "unknown" {
		// `go run` does not stamp VCS information: ask git.
		if out, err := exec.Command("git", "rev-parse", "HEAD").Output(); err == nil {
			env["git_commit"] = strings.TrimSpace(string(out))
			if st, err := exec.Command("git", "status", "--porcelain").Output(); err == nil {
				env["git_dirty"] = len(strings.TrimSpace(string(st))) > 0
			}
		}
	}
	if env["goamd64"] == nil || env["goamd64"] == "" {
		env["goamd64"] = os.Getenv("GOAMD64")
	}
	env["date"] = started.UTC().Format(time.RFC3339)
	return env
}

func readTrim(path string) *string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	s := strings.TrimSpace(string(b))
	return &s
}

func parseSize(s string) *uint64 {
	mult := uint64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1024, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		mult, s = 1024*1024, strings.TrimSuffix(s, "M")
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return nil
	}
	n *= mult
	return &n
}

func osName() string {
	name := runtime.GOOS
	if b, err := os.ReadFile("/etc/os-release"); err == nil {
		for line := range strings.SplitSeq(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "PRETTY_NAME="); ok {
				name = strings.Trim(v, `"`)
			}
		}
	}
	if r := readTrim("/proc/sys/kernel/osrelease"); r != nil {
		name += " " + *r
	}
	return name
}

// LoadAverage is /proc/loadavg's three figures, or nil.
func LoadAverage() []float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return nil
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return nil
	}
	out := make([]float64, 3)
	for i := range out {
		if out[i], err = strconv.ParseFloat(f[i], 64); err != nil {
			return nil
		}
	}
	return out
}
