//! Usage: buffa-gen SCHEMA_DIR SCHEMA_FILE OUT_DIR
//!
//! Compiles SCHEMA_DIR/SCHEMA_FILE with protox, decodes the descriptors with
//! buffa's own descriptor types, and writes buffa-codegen's Rust code for the
//! schema's package to OUT_DIR/<package>.rs. Two options differ from
//! buffa-codegen's defaults: `file_per_package` (one file holding the owned
//! messages, their views and oneofs) and `unboxed_oneof_fields` for every
//! oneof (a message variant inline in its enum rather than boxed, which only
//! recursive types need; buffa keeps a recursive one boxed whatever this says).

use std::path::PathBuf;

use buffa_codegen::generated::descriptor::FileDescriptorSet;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [schema_dir, schema_file, out_dir] = args.as_slice() else {
        eprintln!("usage: buffa-gen SCHEMA_DIR SCHEMA_FILE OUT_DIR");
        std::process::exit(2);
    };
    let schema_dir = PathBuf::from(schema_dir);
    let descriptors = protox::Compiler::new([&schema_dir])
        .and_then(|mut compiler| {
            compiler.include_source_info(true).include_imports(true);
            compiler.open_file(schema_dir.join(schema_file))?;
            Ok(compiler.encode_file_descriptor_set())
        })
        .unwrap_or_else(|err| panic!("protox failed to compile {schema_file}: {err:?}"));
    let options = buffa_codegen::tooling_decode_options().unwrap_or_else(|err| panic!("{err}"));
    let set: FileDescriptorSet = options
        .decode_from_slice(&descriptors)
        .unwrap_or_else(|err| panic!("buffa cannot decode protox's descriptors: {err}"));
    let mut config = buffa_codegen::CodeGenConfig::default();
    config.file_per_package = true;
    config.unboxed_oneof_fields = vec![".".to_owned()];
    let files = buffa_codegen::generate(&set.file, std::slice::from_ref(schema_file), &config)
        .unwrap_or_else(|err| panic!("buffa-codegen failed on {schema_file}: {err}"));
    for file in files {
        let path = PathBuf::from(out_dir).join(&file.name);
        std::fs::write(&path, file.content)
            .unwrap_or_else(|err| panic!("cannot write {}: {err}", path.display()));
    }
}
