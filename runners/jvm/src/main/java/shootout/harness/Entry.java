package shootout.harness;

import shootout.codec.Info;
import shootout.codec.Mapping;

/** One format measured on a workload: its metadata and its codec constructor. */
public record Entry<R, S>(Info info, Mapping.Make<R, S> factory) {}
