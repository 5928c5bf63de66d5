//! The coreutils family: deletes, writes, disk tools, permissions, find, sed,
//! archives and rsync, through wrappers, quoting and shell payloads, with their
//! false-positive forms.

use crate::check::{check, check_with, class};
use classifier::MemFiles;

#[test]
fn deleting_asks_anywhere() {
    for cmd in [
        "rm file.txt", "rm -rf build/", "rm -rf ./check", "rm -rf build node_modules", "rmdir empty", "unlink f", "rm -rf /tmp/x", "rm -rf ~/projects/old",
        "rm -rf /home/user/old-project", "shred -u secrets.txt", "rm -rf /usr/local/lib/foo",
    ] {
        check(cmd, "T3");
    }
    check("rm --help", "T0");
}

#[test]
fn catastrophic_deletes_are_blocked() {
    for cmd in [
        "rm -rf /", "rm -rf /*", "rm -rf ~", "rm -rf ~/", "rm -rf ~/*", "rm -rf $HOME", "rm -rf \"$HOME\"", "rm -rf ${HOME}/", "rm -fr /", "rm -r -f /",
        "rm --recursive --force /", "rm -rf --no-preserve-root /", "rm -rf /etc", "rm -rf /usr", "rm -rf /var", "rm -rf /home", "rm -rf /bin /sbin",
        "rm -rf /System", "rm -rf ./ /", "rm -rf / --dry-run", "rm -rf /home/user", "cd / && rm -rf *", "cd ~ && rm -rf .", "rm -rf ../../..", "sudo rm -rf /",
        "/bin/rm -rf /", "\\rm -rf /", "r''m -rf /", "\"rm\" -rf /", "bash -c 'rm -rf /'", "sh -c \"rm -rf ~\"", "xargs rm -rf /", "nohup rm -rf / &",
        "(rm -rf /)", "ls && rm -rf ~", "echo $(rm -rf /)", "find / -delete", "find ~ -type f -exec rm {} +",
    ] {
        check(cmd, "BLOCKED");
    }
}

#[test]
fn unresolved_deletes_ask_with_a_warning() {
    check("rm -rf \"$DIR\"", "T3");
    check("rm -rf $DIR/*", "T3");
    check("rm -rf $(mktemp -d)", "T3");
}

#[test]
fn mentions_of_rm_are_data() {
    check("echo 'rm -rf /'", "T0");
    check("grep -rn 'rm -rf /' src/", "T0");
    check("git commit -m 'rm -rf /'", "T0");
    check("printf '%s\\n' 'rm -rf ~'", "T0");
}

#[test]
fn writes_inside_the_tree_are_authoring() {
    for cmd in [
        "cp src.txt dst.txt", "cp -r templates/ out/", "mkdir -p src/new", "mkdir -- subdir", "touch src/new.rs", "tee out.log", "tee -a notes.txt",
        "ln -s ../shared/config.toml config.toml", "install -m 644 a.txt out/a.txt", "truncate -s 0 out.log", "sort -o sorted.txt names.txt",
        "uniq in.txt out.txt", "split -l 100 big.txt part_", "tree -o tree.txt",
    ] {
        check(cmd, "T0");
    }
}

#[test]
fn writes_outside_the_tree_ask() {
    for cmd in [
        "cp bin/tool /usr/local/bin/", "cp config.toml ~/.config/app/config.toml", "cp -f a.txt ../other/a.txt", "mkdir /etc/myapp", "mkdir ~/newdir",
        "touch /etc/nologin", "tee /etc/hosts", "tee -a ~/.zshrc", "sudo tee /etc/hosts", "ln -sf /bin/sh /usr/bin/python",
        "install -m 755 tool /usr/local/bin/tool", "truncate -s 0 /var/log/app.log", "sort -o /etc/passwd names.txt", "cp x $OUT", "cp -t /etc a b",
    ] {
        check(cmd, "T3");
    }
}

#[test]
fn moves_that_can_lose_something_ask() {
    let tree = MemFiles::new().with("/work/proj/old.txt", "a").with("/work/proj/new.txt", "b").with("/work/proj/src/a.rs", "x");
    check_with("mv old.txt new.txt", &tree, "T3");
    check_with("mv new.txt src/a.rs", &tree, "T3");
    check_with("mv old.txt src/", &tree, "T0");
    check_with("mv a.rs src/", &tree.with("/work/proj/a.rs", "y"), "T3");
    check("mv src/a.rs /tmp/", "T3");
    check("mv src/a.rs ../other/a.rs", "T3");
    check("mv /etc/hosts hosts.bak", "T3");
    check("mv ~/notes.txt notes.txt", "T3");
    check("mv *.log logs/", "T3");
    check("mv $SRC new.txt", "T3");
    check("mv .git/config config.bak", "T3");
    check("mv -T build out", "T0");
    check("git mv old.txt new.txt", "T0");
    // Without a working directory tiergate cannot look: ask.
    let v = classifier::classify_with(&classifier::Request::new("mv old.txt new.txt"), &MemFiles::new());
    assert_eq!(class(&v), "T3", "{v:?}");
}

#[test]
fn renames_onto_new_names_in_the_tree_are_authoring() {
    for cmd in [
        "mv old.txt new.txt",
        "mv sklearn/utils/_set_output.py_new sklearn/utils/_set_output.py",
        "mv /tmp/build.log logs/build.log",
        "env mv a b",
        "command mv a b",
        "timeout 5 mv a b",
        "bash -c 'mv a b'",
        "mv -v a b && ls",
    ] {
        check(cmd, "T0");
    }
    let tree = MemFiles::new().with("/work/proj/src/a.rs", "x");
    check_with("mv b.rs c.rs src/", &tree, "T0");
    check_with("mv -t src b.rs c.rs", &tree, "T0");
    check_with("mv -t src a.rs", &tree, "T3");
}

#[test]
fn protected_paths_are_blocked() {
    for cmd in [
        "cp evil.py .claude/hooks/pre_tool_use.py", "cp -r backup/.claude .", "cp settings.json .claude/", "mv x.sh .claude/hooks/guard.sh",
        "mv .claude/hooks/guard.sh /tmp/", "ln -sf /tmp/x .claude/hooks/pre.sh", "install -m 755 x .claude/hooks/x", "touch .claude/hooks/new.py",
        "truncate -s0 .claude/settings.json", "tee .claude/settings.json", "sed -i 's/deny/allow/' .claude/settings.json", "chmod -x .claude/hooks/guard.sh",
        "rm .claude/hooks/guard.sh", "rm -rf .claude/hooks", "rm -rf .claude", "rsync -a hooks/ .claude/hooks/", "dd if=payload of=.claude/hooks/guard.sh",
        "tar -xf x.tar -C .claude/hooks", "find . -fprint .claude/settings.json",
    ] {
        check(cmd, "BLOCKED");
    }
    check("cat .claude/settings.json", "T0");
    check("cp .claude/settings.json /tmp/settings.backup.json", "T0");
    check("touch .claude/hooks/README.md", "T0");
}

#[test]
fn disks_are_the_floor() {
    for cmd in [
        "dd if=/dev/zero of=/dev/sda", "dd if=x.iso of=/dev/disk2 bs=4m", "dd of=/dev/nvme0n1 if=/dev/urandom", "sudo dd if=/dev/zero of=/dev/mmcblk0",
        "mkfs.ext4 /dev/sda1", "mkfs -t xfs /dev/sdc", "mke2fs /dev/vdb", "mkswap /dev/xvdb", "fdisk /dev/sda", "sfdisk /dev/sda < layout",
        "parted /dev/sda mklabel gpt", "wipefs -a /dev/sda", "blkdiscard /dev/nvme0n1", "shred -n 3 /dev/sda",
    ] {
        check(cmd, "BLOCKED");
    }
    for cmd in [
        "dd if=/dev/sda of=disk.img count=1", "dd if=/dev/zero of=blank.img bs=1M count=10", "dd if=/dev/urandom bs=16 count=1", "fdisk -l", "parted -l",
        "parted /dev/sda print", "sfdisk -d /dev/sda", "wipefs /dev/sda", "mkfs --help", "mkfs.ext4 disk.img",
    ] {
        check(cmd, "T0");
    }
    check("dd if=/dev/zero of=/etc/x", "T3");
}

#[test]
fn permissions() {
    check("chmod +x script.sh", "T0");
    check("chmod u+x bin/tool scripts/run.sh", "T0");
    check("chmod +x test.ts && bun run ./test.ts", "T3");
    check("chmod +x /usr/local/bin/tool", "T3");
    check("chmod +x ~/bin/tool", "T3");
    check("chmod +x /tmp/run.sh", "T3");
    check("chmod +x .git/hooks/pre-commit", "T3");
    check("chmod -R +x scripts", "T3");
    check("chmod +xs tool", "T3");
    check("chmod o+w notes.md", "T3");
    check("chmod +x $F", "T3");
    check("chmod 755 script.sh", "T3");
    check("chown -R root:root /srv", "T3");
    check("chmod -R 777 /", "BLOCKED");
    check("sudo chown -R nobody /etc", "BLOCKED");
    check("chmod -R 755 ~", "BLOCKED");
    check("chmod -R 755 scripts", "T3");
}

#[test]
fn find_runs_and_deletes() {
    check("find . -name '*.py'", "T0");
    check("find . -name '*.rs' -exec grep -n TODO {} +", "T0");
    check("find . -type f -exec wc -l {} \\;", "T0");
    check("find . -name '*.pyc' -delete", "T3");
    check("find . -type f -exec rm {} \\;", "T3");
    check("find . -name '*.py' -exec chmod 644 {} +", "T3");
    check("find . -exec sh -c 'curl x | sh' \\;", "BLOCKED");
    check("find . -fprint /etc/files", "T3");
    check("find / -name x -print", "T0");
    check("find / -delete", "BLOCKED");
}

#[test]
fn sed_in_place_is_a_write_and_e_runs() {
    for cmd in [
        "sed -i 's/foo/bar/' file.txt", "sed -i.bak 's/a/b/' f", "sed --in-place 's/a/b/' f", "sed -ni 's/a/b/p' f", "sed -I 's/a/b/' f",
        "sed -i '' 's/a/b/' f", "sed -n '1,20p' file.txt", "sed -e 's/a/b/' -e 's/c/d/' f", "sed -E 's/(a|b)+/x/g' f", "sed '/^#/d; s/ *$//' f",
        "sed 'y/abc/xyz/' f", "sed '$a\\\\nend' f",
    ] {
        check(cmd, "T0");
    }
    for cmd in [
        "sed -i 's/a/b/' /etc/hosts", "sed -i 's/a/b/' ~/.bashrc", "sed -i 's/a/b/' ../other-repo/f", "sed 's/x/id/e' f", "sed '1e id' f",
        "sed 's/a/b/w /etc/x' f", "sed -n 'w /etc/out' f",
    ] {
        check(cmd, "T3");
    }
    check("sed '1e rm -rf /' f", "BLOCKED");
}

#[test]
fn archives_write_where_they_extract() {
    for cmd in [
        "tar -czf out.tar.gz dir/", "tar czf out.tar.gz dir/", "tar -xzf vendor.tar.gz", "tar --extract -f a.tgz", "tar -tf archive.tar.gz",
        "tar tf archive.tar.gz", "unzip -o assets.zip -d assets/", "unzip -l a.zip", "zip -r out.zip src", "gzip -k data.csv", "gunzip -c a.gz",
        "7z x a.7z -oout", "zstd -o out.zst file",
    ] {
        check(cmd, "T0");
    }
    for cmd in [
        "tar -xzf x.tar.gz -C /", "tar -xf x.tar --directory=/usr", "tar -czf /etc/backup.tgz src", "unzip x.zip -d /opt", "tar -xPf x.tar",
        "tar -xf a.tar --to-command='sh -c x'", "tar -I 'sh -c id' -xf a.tar", "tar --remove-files -czf logs.tgz logs/", "gzip /etc/hosts", "7z x a.7z -o/etc",
    ] {
        check(cmd, "T3");
    }
}

#[test]
fn rsync_lanes() {
    check("rsync -a src/ out/", "T0");
    check("rsync -a host:/var/log/ logs/", "T0");
    check("rsync -an --delete src/ out/", "T2");
    check("rsync -a --delete src/ out/", "T3");
    check("rsync -avz dist/ deploy@web:/var/www/", "T3");
    check("rsync -a src/ /etc/app/", "T3");
    check("rsync -e 'nc x' a b", "T3");
    check("rsync -e ssh -a src/ out/", "T0");
}

#[test]
fn program_hooks_of_text_tools_ask() {
    check("rg --pre ./decode.sh foo", "T3");
    check("rg -n TODO src/", "T0");
    check("sort -u names.txt", "T0");
    check("split --filter='sh -c x' big.txt", "T3");
}

#[test]
fn secrets_copied_ask() {
    check("cp id_rsa /tmp/", "T3");
    check("cp ~/.ssh/id_ed25519 ./k", "T3");
    check("cp id_rsa.pub keys/", "T0");
}

#[test]
fn patch_tool_needs_a_visible_patch() {
    let files = MemFiles::new().with("/work/proj/fix.patch", "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n");
    check_with("patch -p1 < fix.patch", &files, "T0");
    check_with("patch -p1 -i fix.patch", &files, "T0");
    check_with("patch -p1 < other.patch", &files, "T3");
    check_with("patch --dry-run -p1 < other.patch", &files, "T2");
    check_with("patch /etc/hosts fix.patch", &files, "T3");
}

#[test]
fn more_writers_and_runners() {
    check("sponge out.txt", "T0");
    check("sponge /etc/hosts", "T3");
    check("rename 's/a/b/' *.txt", "T3");
    check("xxd -r dump.hex out.bin", "T0");
    check("xxd -r dump.hex /usr/bin/ls", "T3");
    check("chflags uchg f", "T3");
    check("setfattr -n user.x -v 1 f", "T3");
    check("fd -e rs -x wc -l", "T0");
    check("fd -e tmp -x rm", "T3");
    check("fd . / -X rm -rf", "T3");
    check("fd -e rs", "T0");
}

#[test]
fn known_variables_resolve() {
    check("mkdir -p \"$PWD/build\"", "T0");
    check("cp x \"$HOME/.bashrc\"", "T3");
    check("cp x \"$HOME/notes.txt\"", "T3");
    check("mkdir -p \"$OUT_DIR\"", "T3");
    check("sed \"s/VERSION/$VERSION/\" template.txt", "T0");
    // A variable in the flags position could be `e`.
    check("sed \"s/a/b/$FLAGS\" f", "T3");
    check("sed -i \"s/x/$Y/\" /etc/hosts", "T3");
}

#[test]
fn directories_copied_onto_claude_are_blocked() {
    check("cp -r cfg ~/.claude", "BLOCKED");
    check("rsync -a cfg/ .claude/", "BLOCKED");
    check("mv newcfg .claude", "BLOCKED");
    check("cp notes.md .claude/", "T0");
    let claude = MemFiles::new().with("/work/proj/.claude/settings.json", "{}").with("/work/proj/.claude/notes.md", "");
    check_with("mv todo.md .claude/", &claude, "T0");
    check_with("mv notes.md .claude/", &claude, "T3");
    check_with("mv settings.json .claude/", &claude, "BLOCKED");
    check("mv hooks .claude/", "BLOCKED");
    check("cp -r docs/ out/", "T0");
}

/// The protect policy through the library API: a `Protected` with user patterns on
/// the `Request`, every write mechanism asking it (`classifier::protect`).
#[test]
fn user_protected_paths_through_the_request() {
    use crate::check::{CWD, HOME};
    use classifier::{classify, Protected, Request};
    let protect = Protected::builtin().with_patterns([("secrets/*.{pem,key}", "test.toml"), ("~/vault", "test.toml")], Some(HOME), Some(CWD)).unwrap();
    let v = |cmd: &str| classify(&Request::new(cmd).with_cwd(CWD).with_home(HOME).with_protected(protect.clone()));
    for cmd in [
        "cp x secrets/a.pem", "echo x > secrets/b.key", "tee secrets/a.PEM", "sed -i s/a/b/ secrets/a.pem", "dd if=x of=secrets/a.pem", "rm secrets/a.pem",
        "mv secrets/a.pem /tmp/", "git checkout -- secrets/a.pem", "curl -o ~/vault/token https://x", "python3 -c \"open('secrets/a.key','w')\"",
    ] {
        let r = v(cmd);
        assert!(r.blocked && r.rule == "paths.protected", "`{cmd}`: {} {}", r.rule, r.reason);
        assert!(r.reason.contains("secrets/*.{pem,key}") || r.reason.contains("~/vault"), "names the entry: {}", r.reason);
    }
    for cmd in ["cp x secrets/a.txt", "echo x > secrets/sub/a.pem", "cat secrets/a.pem"] {
        assert!(!v(cmd).blocked, "`{cmd}`: {}", v(cmd).rule);
    }
    assert_eq!(v("tar -xf a.tar -C secrets").rule, "paths.extract-protected");
    // Without the user's patterns the same command is an ordinary write.
    assert!(!classify(&Request::new("cp x secrets/a.pem").with_cwd(CWD)).blocked);
    // The direct question a family (or the hook) can ask.
    assert_eq!(protect.check_path("secrets/a.pem", Some(CWD), Some(HOME)).map(|p| p.rule.id), Some("paths.protected"));
    assert!(Protected::builtin().with_patterns([("secrets/[a", "test.toml")], None, Some(CWD)).unwrap_err().contains("secrets/[a"));
}

#[test]
fn sed_text_commands_are_data() {
    // a\ i\ c\ take text lines, each but the last ending in a backslash; words in
    // them (`else`, `exit`, `e`) are not sed commands.
    for cmd in [
        "sed -i '873a\\\n        else:\\\n            return val' astropy/x.py",
        "sed -i '86,89c\\            try:\\\n                e = 1\\\n            except IndexError:\\\n                pass' django/x.py",
        "sed -i '/class BoundWidget:/i \\\n    def has_changed(self):\\\n        return e' django/forms/x.py",
        "sed -i '146i \\    def _bound_items(self):\\\n        yield e\\\n' f.py",
        "sed -i '/x/,/y/!b; /y/a \\\n\\\n    def test(self):\\\n        pass' t.py",
        "sed '1i exit 0' f",
        "sed -e '$a\\' -e 'end' f",
    ] {
        check(cmd, "T0");
    }
    // The text ends at the first newline no backslash escapes; what follows is script.
    check("sed -i '3a\\\n  text\\\n  more\ne rm -rf build' f.py", "T3");
    check("sed '1a foo\\\\\ne rm -rf build' f", "T3");
    check("sed -i '1c\\\nx\nw /etc/cron.d/x' f", "T3");
}
