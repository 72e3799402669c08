//! Usage: capnp-gen SCHEMA_DIR SCHEMA_FILE OUT_DIR
//!
//! Compiles SCHEMA_DIR/SCHEMA_FILE with the `capnp` tool on PATH and the capnpc
//! code generator, writing OUT_DIR/<stem>_capnp.rs whose cross references point at
//! `crate::format::capnp::generated::<stem>_capnp`, the module that file is.

use std::path::PathBuf;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [schema_dir, schema_file, out_dir] = args.as_slice() else {
        eprintln!("usage: capnp-gen SCHEMA_DIR SCHEMA_FILE OUT_DIR");
        std::process::exit(2);
    };
    let schema_dir = PathBuf::from(schema_dir);
    capnpc::CompilerCommand::new()
        .src_prefix(&schema_dir)
        .file(schema_dir.join(schema_file))
        .output_path(out_dir)
        .default_parent_module(vec!["format".into(), "capnp".into(), "generated".into()])
        .run()
        .expect("capnp code generation failed");
}
