//! Build-tool wrapper scripts checked into a project (`./gradlew`, `./mvnw`,
//! `./sbtx`): each is the build tool it fetches and starts, so the command is
//! classified by the tasks it asks for (`./gradlew test` as `gradle test`), not by
//! reading the wrapper's shell code (whose `exec "$JAVACMD" "$@"` only says that it
//! runs something). The build the tool then runs is the project's own code, as it
//! is for `gradle test`. (Here, not in `packages`: the script lane asks it first,
//! and one family does not reach into another.)
//!
//! It does not vouch for a file that only has the name: a wrapper the file source
//! can read must have its tool's shape (`SHAPES`), or it is read as the script it
//! is; one it cannot read (unreadable, written earlier on the same line) asks there;
//! and a wrapper outside the working tree is someone else's script.

use crate::call::Arg;
use crate::call::Invocation;
use crate::rules::paths::{self, Place};
use crate::rules::{Cx, FileText};

crate::table! {
    /// Wrapper names, each classified by the family of the tool it starts (`gradlew`,
    /// `mvnw`: the JVM build family; `sbtx`: the unmodelled-CLI verb scan, as `sbt`).
    WRAPPERS = ["gradlew", "mvnw", "sbtx"];
    probe "./{} publish" => T3;
}

/// A text the real wrappers carry (Gradle's and Maven's generated scripts name their
/// launcher class or jar; sbt-extras names sbt's launcher jar), for `WRAPPERS` in order.
const SHAPES: [&[&str]; 3] = [&["GradleWrapperMain", "gradle-wrapper.jar"], &["MavenWrapperMain", "maven-wrapper"], &["sbt-launch", "sbt_launch"]];

/// Classifies `./gradlew TASKS…` as the build tool when `inv` runs a wrapper of the
/// working tree that has its shape; false when it is not one (the caller reads it
/// as a script).
pub(crate) fn build_tool(inv: &Invocation, cx: &mut Cx<'_>) -> bool {
    let Some(i) = WRAPPERS.iter().position(|w| w == inv.program.as_str()) else { return false };
    let cwd = inv.cwd.as_deref();
    let (root, home) = (cx.root(), cx.home());
    if paths::place(&inv.program_path, true, cwd, root.as_deref(), home.as_deref(), cx.protected()) != Place::WorkTree {
        return false;
    }
    let shaped = match cx.read(&inv.program_path, cwd) {
        FileText::Text(t) => SHAPES[i].iter().any(|s| t.contains(s)),
        // Not there: the command fails before any build runs; the tasks still say what it asked.
        FileText::Missing => true,
        FileText::Unusable(_) => false,
    };
    if shaped {
        let argv: Vec<Arg> = std::iter::once(Arg::lit(&inv.program)).chain(inv.args.iter().cloned()).collect();
        cx.argv(&argv, cwd);
    }
    shaped
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_wrapper_has_its_shapes() {
        assert_eq!(super::WRAPPERS.len(), super::SHAPES.len());
        assert!(super::SHAPES.iter().all(|s| !s.is_empty()));
    }
}

crate::tables![WRAPPERS];
