//! Code built at run time from a command substitution, as the families meet it in
//! a payload they would otherwise classify (`bash -c "$(curl …)"`, `eval "$(base64 -d …)"`):
//! downloaded or decoded bytes are code nobody has read. The flow pass owns the
//! rules (`flow.remote-exec`, `flow.decode-exec`) and the reading of the text.

use crate::rules::flow::{decodes_in_substitution, fetches_in_substitution, DECODE_EXEC, REMOTE_EXEC};
use crate::rules::Cx;

/// Records `flow.remote-exec` when `text` runs a network fetch inside a command
/// substitution, else `flow.decode-exec` when it decodes data inside one; returns
/// whether either was recorded.
pub(crate) fn fetched_or_decoded(cx: &mut Cx<'_>, text: &str) -> bool {
    if fetches_in_substitution(text) {
        cx.hit(&REMOTE_EXEC);
    } else if decodes_in_substitution(text) {
        cx.hit(&DECODE_EXEC);
    } else {
        return false;
    }
    true
}
