//! README.md shows what the binary says: its format table is
//! `shootout formats --markdown`, pasted whole between two markers, and
//! `SHOOTOUT_UPDATE_EXPECTED=1` pastes it.

use crate::common::{shootout, stdout_of};

const BEGIN: &str = "<!-- shootout formats --markdown: rewritten by SHOOTOUT_UPDATE_EXPECTED=1 cargo test -p shootout --test it -- readme:: -->\n";
const END: &str = "\n<!-- end of shootout formats --markdown -->";

#[test]
fn readme_format_table_is_the_formats_command_output() {
    let table = stdout_of(shootout().args(["formats", "--markdown"]).output().unwrap());
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md");
    let readme = std::fs::read_to_string(path).unwrap();
    let start =
        readme.find(BEGIN).expect("README.md has the formats table's opening marker") + BEGIN.len();
    let end = start
        + readme[start..].find(END).expect("README.md has the formats table's closing marker");
    if readme[start..end] == *table.trim() {
        return;
    }
    if std::env::var_os("SHOOTOUT_UPDATE_EXPECTED").is_some() {
        std::fs::write(path, format!("{}{}{}", &readme[..start], table.trim(), &readme[end..]))
            .unwrap();
        return;
    }
    panic!(
        "README.md's format table differs from `shootout formats --markdown`; \
         rewrite it: SHOOTOUT_UPDATE_EXPECTED=1 cargo test -p shootout --test it -- readme::"
    );
}
