//! Usage: prost-gen SCHEMA_DIR SCHEMA_FILE OUT_DIR
//!
//! Compiles SCHEMA_DIR/SCHEMA_FILE with protox and writes prost-build's Rust code
//! for its package to OUT_DIR/<package>.rs.

use std::path::PathBuf;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [schema_dir, schema_file, out_dir] = args.as_slice() else {
        eprintln!("usage: prost-gen SCHEMA_DIR SCHEMA_FILE OUT_DIR");
        std::process::exit(2);
    };
    let schema_dir = PathBuf::from(schema_dir);
    let descriptors = protox::compile([schema_dir.join(schema_file)], [&schema_dir])
        .unwrap_or_else(|err| panic!("protox failed to compile {schema_file}: {err:?}"));
    prost_build::Config::new()
        .out_dir(out_dir)
        .compile_fds(descriptors)
        .expect("prost-build code generation failed");
}
