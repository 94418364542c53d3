import Foundation
import TestSupport
import Testing

/// The bash completion script `hlscheck --generate-completion-script bash` prints (what
/// `make install` installs), sourced into a real bash and driven as readline drives it: the
/// function `complete -p hlscheck` names, called with COMP_WORDS/COMP_CWORD/COMP_LINE/COMP_POINT
/// set, its COMPREPLY printed. Runs in a folder of real files.
@Suite struct BashCompletionTests {
    static let driver = """
        source "$1" || exit 3
        spec=$(complete -p hlscheck) || exit 4
        function=${spec##*-F }; function=${function%% *}
        COMP_WORDS=("$2" "${@:3}")
        COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
        COMP_LINE="${COMP_WORDS[*]}"
        COMP_POINT=${#COMP_LINE}
        COMPREPLY=()
        "$function" hlscheck "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
        printf '%s\\n' "${COMPREPLY[@]}"
        """

    /// A folder as a user's might be: streams, a poster, a configuration, a baseline.
    static func folder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder([
            "Samples/compliant/master.m3u8": "#EXTM3U\n",
            "Sample.m3u8": "#EXTM3U\n",
            "Sample-notes.txt": "not a playlist\n",
            "poster.jpg": "jpeg",
            "poster-notes.txt": "text",
            ".hlscheck.yml": "profile: audio-only-64k\n",
            "baseline.json": "{}\n",
            "reports/old.html": "<html>",
        ])
        return folder
    }

    /// The completions bash offers for `words` (the last is the word the cursor ends; bash has
    /// already split at `=`, as COMP_WORDBREAKS makes it), run in `folder`.
    static func complete(_ words: [String], in folder: TemporaryFolder) throws -> [String] {
        let script = HLSCheckBinary.executable
        let generated = try HLSCheckBinary.run(["--generate-completion-script", "bash"])
        #expect(generated.status == 0, "\(generated.stderr)")
        try folder.write(Data(generated.stdout.utf8), to: ".completion.bash")
        let result = try ChildProcess.capture(
            ["--norc", "--noprofile", "-c", driver, "driver", folder.path(".completion.bash"), script] + words,
            executable: "/bin/bash", in: folder.url.path)
        #expect(result.status == 0 && !result.killedBySignal, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test func checkCompletesPlaylistsAndFolders() throws {
        let folder = try Self.folder()
        let offered = try Self.complete(["check", "Sampl"], in: folder)
        #expect(Set(offered) == ["Samples", "Sample.m3u8"], "\(offered)")
    }

    @Test func thePathOfTheDefaultSubcommandCompletesToo() throws {
        let folder = try Self.folder()
        // `hlscheck PATH` is `hlscheck check PATH`.
        #expect(Set(try Self.complete(["Sampl"], in: folder)) == ["Samples", "Sample.m3u8"])
        #expect(try Self.complete(["Samples/comp"], in: folder) == ["Samples/compliant"])
        // Subcommand names while the first word is typed, and check's options after a path.
        #expect(try Self.complete(["ch"], in: folder) == ["check"])
        #expect(try Self.complete(["Sample.m3u8", "--fail-"], in: folder) == ["--fail-on"])
    }

    @Test func optionsThatNameFilesCompleteThem() throws {
        let folder = try Self.folder()
        #expect(try Self.complete(["embed", "--image", "pos"], in: folder) == ["poster.jpg"])
        #expect(try Self.complete(["Sample.m3u8", "--baseline", "bas"], in: folder) == ["baseline.json"])
        #expect(try Self.complete(["check", "Sample.m3u8", "--config", ".hls"], in: folder) == [".hlscheck.yml"])
        #expect(try Self.complete(["Sample.m3u8", "--root", "Sam"], in: folder) == ["Samples"])
        #expect(try Self.complete(["inspect", "poster-"], in: folder) == ["poster-notes.txt"])
    }

    @Test func outputCompletesTheFormatThenAnyFile() throws {
        let folder = try Self.folder()
        #expect(try Self.complete(["Sample.m3u8", "--output", "js"], in: folder) == ["json="])
        #expect(
            Set(try Self.complete(["check", "Sample.m3u8", "-o", ""], in: folder))
                == ["text=", "json=", "junit=", "github=", "sarif=", "html="])
        // Bash splits `html=rep` at `=`: the word completed is `rep`, a file or folder of any name.
        #expect(try Self.complete(["Sample.m3u8", "--output", "html", "=", "rep"], in: folder) == ["reports"])
        #expect(
            try Self.complete(["check", "Sample.m3u8", "-o", "json", "=", "reports/"], in: folder) == [
                "reports/old.html"
            ])
    }
}
