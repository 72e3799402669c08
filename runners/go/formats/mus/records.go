package mus

import (
	"shootout/workload"
)

// Each record's fields in declaration order; read overwrites every field
// of the reused record (its lists' storage kept).

func writeUser(o *out, u *workload.User) {
	o.int64(u.UID)
	o.string(u.MUID)
	o.string(u.Status)
	o.int64(u.Tutorial)
	o.string(u.Nickname)
	o.int64(u.TotalLoginNum)
	o.string(u.OpenedAt)
	o.string(u.CreatedAt)
	o.string(u.UpdatedAt)
}

func readUser(f *in, u *workload.User) {
	u.UID = f.int64()
	u.MUID = f.string()
	u.Status = f.string()
	u.Tutorial = f.int64()
	u.Nickname = f.string()
	u.TotalLoginNum = f.int64()
	u.OpenedAt = f.string()
	u.CreatedAt = f.string()
	u.UpdatedAt = f.string()
}

func writeSql(o *out, r *workload.SqlRequest) {
	o.string(r.Query)
	o.length(len(r.Args))
	for _, v := range r.Args {
		o.int64(v)
	}
}

func readSql(f *in, r *workload.SqlRequest) {
	r.Query = f.string()
	r.Args = r.Args[:0]
	for range f.length() {
		r.Args = append(r.Args, f.int64())
	}
}

func writePrimitives(o *out, r *workload.Primitives) {
	o.length(len(r.Ints))
	for _, v := range r.Ints {
		o.int32(v)
	}
	o.length(len(r.Longs))
	for _, v := range r.Longs {
		o.int64(v)
	}
	o.length(len(r.Doubles))
	for _, v := range r.Doubles {
		o.float64(v)
	}
	o.length(len(r.Booleans))
	for _, v := range r.Booleans {
		o.bool(v)
	}
	writeStringList(o, r.Strings)
}

func readPrimitives(f *in, r *workload.Primitives) {
	r.Ints = r.Ints[:0]
	for range f.length() {
		r.Ints = append(r.Ints, f.int32())
	}
	r.Longs = r.Longs[:0]
	for range f.length() {
		r.Longs = append(r.Longs, f.int64())
	}
	r.Doubles = r.Doubles[:0]
	for range f.length() {
		r.Doubles = append(r.Doubles, f.float64())
	}
	r.Booleans = r.Booleans[:0]
	for range f.length() {
		r.Booleans = append(r.Booleans, f.bool())
	}
	r.Strings = readStringList(f, r.Strings)
}

func writeObject(o *out, r *workload.SmallObject) {
	o.int64(r.ID)
	o.string(r.Name)
	o.string(r.Email)
	o.int32(r.Age)
	o.float64(r.Score)
	o.float32(r.Ratio)
	o.bool(r.Active)
	o.uint8(r.Level)
	o.int64(r.CreatedAt)
	writeStringList(o, r.Tags)
}

func readObject(f *in, r *workload.SmallObject) {
	r.ID = f.int64()
	r.Name = f.string()
	r.Email = f.string()
	r.Age = f.int32()
	r.Score = f.float64()
	r.Ratio = f.float32()
	r.Active = f.bool()
	r.Level = f.uint8()
	r.CreatedAt = f.int64()
	r.Tags = readStringList(f, r.Tags)
}

func writeStringList(o *out, vs []string) {
	o.length(len(vs))
	for _, v := range vs {
		o.string(v)
	}
}

// readStringList reads a list of strings into reused's storage.
func readStringList(f *in, reused []string) []string {
	vs := reused[:0]
	for range f.length() {
		vs = append(vs, f.string())
	}
	return vs
}
