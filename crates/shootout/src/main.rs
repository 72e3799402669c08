use std::io;
use std::process::ExitCode;

fn main() -> ExitCode {
    match shootout::cli::main() {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`shootout formats --json | head -1`) is the reader's choice, not a failure.
        Err(error) if error.chain().any(is_broken_pipe) => ExitCode::SUCCESS,
        Err(error) => {
            // An error can quote its input (a name, a cell, a path): shown, never obeyed.
            eprintln!("error: {}", shootout::sanitize::line(&format!("{error:#}")));
            // Distinct from input and usage errors: some formats were measured and exported.
            if error.downcast_ref::<shootout::run::FormatsFailed>().is_some() {
                ExitCode::from(3)
            } else if error.downcast_ref::<shootout::compare::Regressed>().is_some() {
                // For CI: the comparison was made and found a regression.
                ExitCode::from(4)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

/// serde_json and csv wrap the io::Error of their writer without exposing it
/// as a source, so each must be asked for it.
fn is_broken_pipe(error: &(dyn std::error::Error + 'static)) -> bool {
    let kind = if let Some(error) = error.downcast_ref::<io::Error>() {
        Some(error.kind())
    } else if let Some(error) = error.downcast_ref::<serde_json::Error>() {
        error.io_error_kind()
    } else if let Some(csv::ErrorKind::Io(error)) =
        error.downcast_ref::<csv::Error>().map(csv::Error::kind)
    {
        Some(error.kind())
    } else {
        None
    };
    kind == Some(io::ErrorKind::BrokenPipe)
}
