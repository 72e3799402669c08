use std::io;
use std::process::ExitCode;

fn main() -> ExitCode {
    match shootout::cli::main() {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`shootout inspect x | head`) is the reader's choice, not a failure.
        Err(error) if error.chain().any(|e| e.downcast_ref::<io::Error>().is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)) => {
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {error:#}");
            // Distinct from input and usage errors: some formats were measured and exported.
            if error.downcast_ref::<shootout::cli::FormatsFailed>().is_some() { ExitCode::from(3) } else { ExitCode::FAILURE }
        }
    }
}
