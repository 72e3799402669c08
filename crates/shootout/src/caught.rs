//! Panics caught where a library's panic is a finding to report (a decoder
//! fed foreign or hostile bytes), not a bug of shootout's.

use std::any::Any;
use std::cell::{Cell as ThreadCell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    /// Whether this thread's panics are being caught (and so not printed).
    static QUIET: ThreadCell<bool> = const { ThreadCell::new(false) };
    /// Where this thread's last caught panic happened.
    static PANIC_LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Runs `f`, turning a panic into its message (with where it happened). The
/// panic hook stays silent for this thread meanwhile, so a panicking library
/// does not spam the terminal; other threads' panics print as usual.
pub fn quietly<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if QUIET.get() {
                PANIC_LOCATION.set(info.location().map(|l| format!("{}:{}", l.file(), l.line())));
            } else {
                previous(info);
            }
        }));
    });
    let was_quiet = QUIET.replace(true);
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    QUIET.set(was_quiet);
    result.map_err(|payload| {
        let message = message(payload.as_ref());
        match PANIC_LOCATION.take() {
            Some(location) => format!("{message} (at {location})").replace('\n', " "),
            None => message.replace('\n', " "),
        }
    })
}

/// A panic's message, from its payload.
pub fn message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(a panic without a message)".to_owned())
}
