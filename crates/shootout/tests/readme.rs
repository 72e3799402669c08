//! README.md shows what the binary says: its format table is
//! `shootout formats --markdown`, pasted whole.

mod common;

use common::shootout;

#[test]
fn readme_format_table_is_the_formats_command_output() {
    let output = shootout().args(["formats", "--markdown"]).output().unwrap();
    assert!(output.status.success());
    let table = String::from_utf8(output.stdout).unwrap();
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap();
    assert!(
        readme.contains(table.trim()),
        "README.md's format table differs from `shootout formats --markdown`; paste the command's output \
         into README.md's Formats section:\n{table}"
    );
}
