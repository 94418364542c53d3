import Foundation
import TestSupport
import Testing

/// The zsh and fish completion scripts `hlscheck --generate-completion-script zsh|fish` prints
/// (what `make install` installs into site-functions/_hlscheck and vendor_completions.d), loaded
/// into a real zsh and a real fish (`make test-deps` installs both) and asked what they offer,
/// in a folder of real files, with `hlscheck` on PATH as installed.
@Suite struct ZshAndFishCompletionTests {
    /// An interactive zsh on a pseudo-terminal (zsh/zpty), with compinit loading `_hlscheck` from
    /// `$1` as it loads it from site-functions: the line `$2` is typed and TAB pressed. compadd
    /// is wrapped to write each match the completion system adds (with its -p prefix, as it would
    /// be inserted) to $HITS_FILE; a post-completion hook writes DONE there.
    static let zshDriver = #"""
        zmodload zsh/zpty || exit 3
        zpty -b z zsh -f -i
        zpty -w z "PS1='' PS2='' RPS1=''; fpath=(${(q)1} \$fpath); autoload -Uz compinit; compinit -u -D"
        zpty -w z 'compadd() {
          if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi
          local -a hits pre; builtin compadd -A hits "$@"
          zparseopts -E p:=pre 2>/dev/null
          local h; for h in $hits; do print -r -- "MATCH:${pre[2]}$h" >> $HITS_FILE; done
          builtin compadd "$@"
        }'
        zpty -w z 'finished() { print -r -- DONE >> $HITS_FILE }; comppostfuncs=(finished); bindkey "^I" complete-word'
        zpty -w z "$2"$'\t'
        integer i
        for (( i = 0; i < 600; i++ )); do
          [[ -f $HITS_FILE ]] && grep -q '^DONE$' $HITS_FILE && break
          zpty -r -t z junk 2>/dev/null
          sleep 0.05
        done
        zpty -d z
        grep -q '^DONE$' $HITS_FILE || exit 4
        sed -n 's/^MATCH://p' $HITS_FILE
        """#

    /// A folder as a user's might be, with `bin/hlscheck` (the binary under test) for PATH.
    static func folder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder([
            "Samples/compliant/master.m3u8": "#EXTM3U\n",
            "Sample.m3u8": "#EXTM3U\n",
            "Sample-notes.txt": "not a playlist\n",
            "poster.jpg": "jpeg",
            "poster-notes.txt": "text",
            ".hlscheck.yml": "profile: audio-only-64k\n",
            "strict.yml": "failOn: warning\n",
            "baseline.json": "{}\n",
            "reports/old.html": "<html>",
        ])
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("bin"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: folder.path("bin/hlscheck"), withDestinationPath: HLSCheckBinary.executable)
        return folder
    }

    static func script(_ shell: String) throws -> Data {
        let generated = try HLSCheckBinary.run(["--generate-completion-script", shell])
        #expect(generated.status == 0, "\(generated.stderr)")
        return Data(generated.stdout.utf8)
    }

    static func shell(_ name: String) throws -> String {
        let path = try #require(
            ["/usr/bin/\(name)", "/bin/\(name)", "/usr/local/bin/\(name)"].first {
                FileManager.default.isExecutableFile(atPath: $0)
            },
            "\(name) is not installed: make test-deps installs it")
        return path
    }

    static func run(_ executable: String, _ arguments: [String], in folder: TemporaryFolder) throws -> [String] {
        try? FileManager.default.removeItem(atPath: folder.path(".hits"))
        let path = folder.path("bin") + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try ChildProcess.capture(
            arguments, executable: executable, in: folder.url.path,
            environment: ["PATH": path, "HITS_FILE": folder.path(".hits"), "HOME": folder.path(".")])
        #expect(result.status == 0, "\(arguments.last ?? ""): \(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// What zsh offers after `line` and TAB.
    static func zsh(_ line: String, in folder: TemporaryFolder) throws -> Set<String> {
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent(".zfunc"), withIntermediateDirectories: true)
        try folder.write(try script("zsh"), to: ".zfunc/_hlscheck")
        return Set(
            try run(try shell("zsh"), ["-f", "-c", zshDriver, "driver", folder.path(".zfunc"), line], in: folder))
    }

    /// What fish offers after `line` (`complete -C`, the candidates without their descriptions).
    static func fish(_ line: String, in folder: TemporaryFolder) throws -> Set<String> {
        try folder.write(try script("fish"), to: ".hlscheck.fish")
        let command = "source .hlscheck.fish; and complete -C \(shellQuoted(line))"
        return Set(
            try run(try shell("fish"), ["--no-config", "-c", command], in: folder).map {
                String($0.prefix { $0 != "\t" })
            })
    }

    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    @Test func zshCompletesPathsWithOrWithoutTheSubcommand() throws {
        let folder = try Self.folder()
        // `hlscheck PATH` is `hlscheck check PATH`: playlists and folders, not other files.
        #expect(try Self.zsh("hlscheck Sampl", in: folder) == ["Samples", "Sample.m3u8"])
        #expect(try Self.zsh("hlscheck check Sampl", in: folder) == ["Samples", "Sample.m3u8"])
        #expect(try Self.zsh("hlscheck Samples/comp", in: folder) == ["Samples/compliant"])
        // Subcommand names while the first word is typed, and check's options after a path.
        #expect(try Self.zsh("hlscheck ch", in: folder) == ["check"])
        #expect(try Self.zsh("hlscheck Sample.m3u8 --fail-", in: folder) == ["--fail-on"])
    }

    @Test func zshCompletesTheFilesOptionsName() throws {
        let folder = try Self.folder()
        #expect(try Self.zsh("hlscheck embed --image pos", in: folder) == ["poster.jpg"])
        #expect(try Self.zsh("hlscheck Sample.m3u8 --baseline bas", in: folder) == ["baseline.json"])
        #expect(try Self.zsh("hlscheck check Sample.m3u8 --config .hls", in: folder) == [".hlscheck.yml"])
        #expect(try Self.zsh("hlscheck Sample.m3u8 --output js", in: folder) == ["json="])
        #expect(try Self.zsh("hlscheck Sample.m3u8 --output html=rep", in: folder) == ["html=reports/"])
        #expect(try Self.zsh("hlscheck Sample.m3u8 -o json=reports/", in: folder) == ["json=reports/old.html"])
    }

    @Test func fishCompletesPathsWithOrWithoutTheSubcommand() throws {
        let folder = try Self.folder()
        #expect(try Self.fish("hlscheck Sampl", in: folder) == ["Samples/", "Sample.m3u8"])
        #expect(try Self.fish("hlscheck check Sampl", in: folder) == ["Samples/", "Sample.m3u8"])
        #expect(try Self.fish("hlscheck Samples/comp", in: folder) == ["Samples/compliant/"])
        #expect(try Self.fish("hlscheck ch", in: folder) == ["check"])
        #expect(try Self.fish("hlscheck Sample.m3u8 --fail-", in: folder) == ["--fail-on"])
    }

    @Test func fishCompletesTheFilesOptionsName() throws {
        let folder = try Self.folder()
        #expect(try Self.fish("hlscheck embed --image pos", in: folder) == ["poster.jpg"])
        #expect(try Self.fish("hlscheck Sample.m3u8 --baseline bas", in: folder) == ["baseline.json"])
        #expect(try Self.fish("hlscheck Sample.m3u8 --config str", in: folder) == ["strict.yml"])
        #expect(try Self.fish("hlscheck Sample.m3u8 --output js", in: folder) == ["json="])
        #expect(
            try Self.fish("hlscheck check Sample.m3u8 -o ", in: folder)
                == ["text=", "json=", "junit=", "github=", "sarif=", "html="])
        #expect(try Self.fish("hlscheck Sample.m3u8 --output html=rep", in: folder) == ["html=reports/"])
        #expect(try Self.fish("hlscheck check Sample.m3u8 -o json=reports/", in: folder) == ["json=reports/old.html"])
    }
}
