import Foundation
import TestSupport
import Testing

/// Runs the binary on a pseudo-terminal (util-linux `script`, from bsdutils, essential in
/// Debian): standard output and standard error are the terminal, and what it shows comes back
/// as one stream (line ends as `\r\n`). `columns` sizes the terminal (stty), as a window would.
enum Terminal {
    static func run(
        _ arguments: [String], environment: [String: String] = [:], columns: Int? = nil, in folder: URL
    ) throws -> CommandResult {
        func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        var variables = ["TERM": "xterm-256color", "PATH": "/usr/bin:/bin"]
        variables.merge(environment) { $1 }
        let command =
            (columns.map { "stty cols \($0) rows 50 && " } ?? "")
            + (["env", "-i"] + variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            + [HLSCheckBinary.executable] + arguments).map(quoted).joined(separator: " ")
        return try ChildProcess.capture(
            ["-q", "-e", "-c", command, "/dev/null"], executable: "/usr/bin/script", in: folder.path)
    }
}

/// Several streams checked concurrently: what is printed, in which order, what a terminal shows,
/// and what stays identical to a sequential run.
@Suite struct ConcurrentRunTests {
    /// Four copies of the compliant sample (segments and all), a stream with findings, and a
    /// path that does not exist: inputs in a fixed order.
    static func streams() throws -> (TemporaryFolder, [String]) {
        let folder = try TemporaryFolder([
            "warns/master.m3u8": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=48000\naudio/index.m3u8\n"
        ])
        let sample = PackageRoot.url.appendingPathComponent("Samples/compliant")
        for name in ["c1", "c2", "c3", "c4"] {
            try FileManager.default.copyItem(at: sample, to: folder.url.appendingPathComponent(name))
        }
        try FileManager.default.copyItem(
            at: sample.appendingPathComponent("audio"), to: folder.url.appendingPathComponent("warns/audio"))
        let inputs = [
            "c1/master.m3u8", "warns/master.m3u8", "c2/master.m3u8", "missing.m3u8", "c3/master.m3u8", "c4/master.m3u8",
        ]
        return (folder, inputs)
    }

    @Test func aConcurrentRunPrintsAndWritesWhatASequentialRunDoes() throws {
        let (folder, inputs) = try Self.streams()
        var outputs: [String: [String]] = [:]
        for jobs in ["1", "4"] {
            let result = try HLSCheckBinary.run(
                inputs + [
                    "--jobs", jobs, "--show-variants", "--format", "text", "-o", "json=\(jobs).json", "-o",
                    "sarif=\(jobs).sarif", "-o", "github=\(jobs).github",
                ],
                in: folder.url)
            #expect(!result.killedBySignal)
            #expect(result.status == 2, "\(result.stderr)")
            let files = try ["json", "sarif", "github"].map {
                try String(contentsOf: folder.url.appendingPathComponent("\(jobs).\($0)"), encoding: .utf8)
            }
            outputs[jobs] =
                [result.stdout, result.stderr] + files.dropLast(2) + [try Self.withoutInvocations(files[1]), files[2]]
        }
        // Piped: the text in input order, byte for byte the sequential run; so are the files.
        #expect(outputs["1"] == outputs["4"])
        let text = try #require(outputs["4"]?.first)
        let order = ["c1/master.m3u8", "warns/master.m3u8", "c2/master.m3u8", "c3/master.m3u8", "c4/master.m3u8"]
            .compactMap { text.range(of: "Variants of \($0)")?.lowerBound }
        #expect(order.count == 5 && order == order.sorted(), "\(text)")
        #expect(text.hasSuffix("5 streams checked, 1 could not be read: 1 error, 1 warning, 0 notes\n"), "\(text)")
        // Nothing meant for a terminal reaches a pipe.
        #expect(!(outputs["4"] ?? []).joined().contains("\u{1B}"))
    }

    /// A SARIF log without its `invocations`, which say when the run started and ended and with
    /// which flags (`--jobs`): everything else must be the same bytes whatever the concurrency.
    static func withoutInvocations(_ sarif: String) throws -> String {
        var log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
        var runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.allSatisfy { $0["invocations"] != nil })
        for index in runs.indices { runs[index]["invocations"] = nil }
        log["runs"] = runs
        let data = try JSONSerialization.data(withJSONObject: log, options: [.sortedKeys, .prettyPrinted])
        return String(decoding: data, as: UTF8.self)
    }

    @Test func onATerminalAProgressLineIsDrawnInPlaceAndCleared() throws {
        let (folder, inputs) = try Self.streams()
        let result = try Terminal.run(inputs + ["--jobs", "2", "--show-variants"], in: folder.url)
        #expect(result.status == 2, "\(result.stdout)")
        let shown = result.stdout
        #expect(shown.contains("\r\u{1B}[Khlscheck: 0/6 streams"), "\(shown.debugDescription)")
        #expect(
            shown.contains("hlscheck: 6/6 streams") || shown.contains("hlscheck: 5/6 streams"),
            "\(shown.debugDescription)")
        #expect(shown.contains(" segments"))
        // Colour on a terminal, and every stream's report whole: its table rows follow its header.
        #expect(shown.contains("\u{1B}[1;33mwarning:\u{1B}[0m"))
        for name in ["c1", "warns", "c2", "c3", "c4"] {
            let block = try #require(
                shown.range(of: "Variants of \(name)/master.m3u8\r\n"), "\(shown.debugDescription)")
            #expect(shown[block.upperBound...].hasPrefix("  URI "))
        }
        // The progress line is erased for good before what comes last: the input that could not
        // be read (standard error), then the summary, on clean lines.
        let erased = try #require(shown.range(of: "\r\u{1B}[K", options: .backwards))
        let last = shown[erased.upperBound...]
        #expect(
            last.hasPrefix("What each rule checks and how to fix it: hlscheck rules codecs-missing input-unreadable"),
            "\(shown.debugDescription)")
        // The input that could not be read is said once on the screen: by the text report (standard
        // error, the same terminal, does not repeat it).
        #expect(
            shown.components(separatedBy: "missing.m3u8: no such file or folder").count == 2,
            "\(shown.debugDescription)")
        #expect(shown.contains(" missing.m3u8: no such file or folder [input-unreadable]"))
        #expect(
            last.hasSuffix("\r\n\r\n5 streams checked, 1 could not be read: 1 error, 1 warning, 0 notes\r\n"),
            "\(shown.debugDescription)")
    }

    @Test func termDumbAndNoColorAndQuietAreHonoured() throws {
        let (folder, inputs) = try Self.streams()
        let dumb = try Terminal.run(inputs + ["--show-variants"], environment: ["TERM": "dumb"], in: folder.url)
        #expect(dumb.status == 2)
        #expect(!dumb.stdout.contains("\u{1B}"), "\(dumb.stdout.debugDescription)")
        #expect(dumb.stdout.contains("Variants of c1/master.m3u8"))

        let noColor = try Terminal.run(inputs, environment: ["NO_COLOR": "1"], in: folder.url)
        #expect(!noColor.stdout.contains("\u{1B}[1;"), "colour despite NO_COLOR")
        #expect(noColor.stdout.contains("\r\u{1B}[Khlscheck: "), "NO_COLOR is about colour; the progress line stays")

        let ci = try Terminal.run(inputs, environment: ["CI": "true"], in: folder.url)
        #expect(!ci.stdout.contains("\u{1B}[K"), "no progress line in CI, even on a pseudo-terminal")
        #expect(ci.stdout.contains("\u{1B}[1;33mwarning:"), "colour stays on a terminal in CI")

        let quiet = try Terminal.run(inputs + ["--quiet"], in: folder.url)
        #expect(!quiet.stdout.contains("\u{1B}[K"), "no progress line with --quiet")
        #expect(!quiet.stdout.contains("Variants of"))
        #expect(quiet.stdout.contains("[codecs-missing]"))
        #expect(quiet.stdout.contains("5 streams checked, 1 could not be read: 1 error, 1 warning, 0 notes"))
    }

    @Test func quietTextIsFindingsAndTheSummaryOnly() throws {
        let (folder, inputs) = try Self.streams()
        let result = try HLSCheckBinary.run(inputs + ["--quiet", "--playlist-only"], in: folder.url)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        // No variant table, no blank line: the findings in input order, then the summary.
        #expect(lines.count == 4, "\(result.stdout)")
        #expect(lines.first?.hasPrefix("warns/master.m3u8:2: warning: ") == true)
        #expect(lines.first?.hasSuffix("[codecs-missing]") == true)
        #expect(lines.dropFirst().first?.hasSuffix("[input-unreadable]") == true)
        #expect(lines.dropFirst(2).first == "5 streams checked, 1 could not be read: 1 error, 1 warning, 0 notes")
    }

    @Test(arguments: [["--jobs", "0"], ["--max-warnings", "-1"]])
    func rejectsOutOfRangeCounts(_ options: [String]) throws {
        let result = try HLSCheckBinary.run(["Samples/compliant/master.m3u8"] + options)
        #expect(result.status == 64, "\(result.stderr)")
    }
}

/// `--write-baseline` / `--baseline` and `--max-warnings`, through the binary.
@Suite struct BaselineCommandTests {
    static let variant = "#EXT-X-STREAM-INF:BANDWIDTH=48000\na.m3u8\n"
    static let media = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns.ts\n#EXT-X-ENDLIST\n"

    /// A repository (a `.git` folder at its root) with a stream whose two variants lack CODECS:
    /// two codecs-missing warnings on two identical lines.
    static func repository(variants: Int = 2, header: String = "") throws -> TemporaryFolder {
        let folder = try TemporaryFolder([
            "streams/master.m3u8": "#EXTM3U\n" + header + String(repeating: variant, count: variants),
            "streams/a.m3u8": media,
            ".git/HEAD": "ref: refs/heads/main\n",
        ])
        return folder
    }

    static func run(_ arguments: [String], in folder: URL) throws -> CommandResult {
        try HLSCheckBinary.run(arguments + ["--playlist-only", "--fail-on", "warning"], in: folder)
    }

    @Test func knownFindingsPassAndNewOnesFail() throws {
        let repository = try Self.repository()
        let written = try Self.run(["streams/master.m3u8", "--write-baseline", "baseline.json"], in: repository.url)
        // Writing a baseline reports and exits as usual.
        #expect(written.status == 1)
        let baseline = try String(contentsOf: repository.url.appendingPathComponent("baseline.json"), encoding: .utf8)
        #expect(baseline.contains("\"file\" : \"streams/master.m3u8\""), "\(baseline)")
        #expect(baseline.contains("\"source\" : \"#EXT-X-STREAM-INF:BANDWIDTH=48000\""))
        #expect(baseline.components(separatedBy: "\"rule\" : \"codecs-missing\"").count == 3)

        let known = try Self.run(
            [
                "streams/master.m3u8", "--baseline", "baseline.json", "-o", "json=r.json", "-o", "sarif=r.sarif",
                "--format", "text",
            ], in: repository.url)
        #expect(known.status == 0, "\(known.stdout)\(known.stderr)")
        #expect(
            known.stdout.hasSuffix(
                "1 stream checked: 0 errors, 0 warnings, 0 notes (2 suppressed, 2 by the baseline)\n"),
            "\(known.stdout)")
        let json = try String(contentsOf: repository.url.appendingPathComponent("r.json"), encoding: .utf8)
        #expect(json.components(separatedBy: "\"baselined\" : true").count == 3, "\(json)")
        #expect(json.contains("\"baselined\" : 2"))
        let sarif = try String(contentsOf: repository.url.appendingPathComponent("r.sarif"), encoding: .utf8)
        #expect(sarif.components(separatedBy: "\"kind\" : \"external\"").count == 3, "\(sarif)")

        // Lines added above move the findings: they keep their identity.
        let moved = try Self.repository(header: "#EXT-X-VERSION:3\n# packaged by the legacy encoder\n")
        try FileManager.default.copyItem(
            at: repository.url.appendingPathComponent("baseline.json"),
            to: moved.url.appendingPathComponent("baseline.json"))
        let stillKnown = try Self.run(["streams/master.m3u8", "--baseline", "baseline.json"], in: moved.url)
        #expect(stillKnown.status == 0, "\(stillKnown.stdout)")

        // A third identical line is one finding more than the baseline knows: it fails, alone.
        let grown = try Self.repository(variants: 3)
        try FileManager.default.copyItem(
            at: repository.url.appendingPathComponent("baseline.json"),
            to: grown.url.appendingPathComponent("baseline.json"))
        let new = try Self.run(["streams/master.m3u8", "--baseline", "baseline.json"], in: grown.url)
        #expect(new.status == 1)
        #expect(new.stdout.components(separatedBy: "[codecs-missing]").count == 2, "\(new.stdout)")
        #expect(new.stdout.contains("streams/master.m3u8:6:"))
    }

    /// Paths are relative to the repository root: a baseline written at the root applies to a
    /// run from a subfolder, or with an absolute path.
    @Test func identityIsRelativeToTheRepositoryRoot() throws {
        let repository = try Self.repository()
        _ = try Self.run(["streams/master.m3u8", "--write-baseline", "baseline.json"], in: repository.url)
        let fromSubfolder = try Self.run(
            ["master.m3u8", "--baseline", "../baseline.json"], in: repository.url.appendingPathComponent("streams"))
        #expect(fromSubfolder.status == 0, "\(fromSubfolder.stdout)")
        let absolute = try Self.run(
            [repository.path("streams/master.m3u8"), "--baseline", "baseline.json"], in: repository.url)
        #expect(absolute.status == 0, "\(absolute.stdout)")
    }

    @Test(arguments: [
        ("missing.json", nil), ("corrupt.json", "{\"findings\": 3"),
        ("other.json", "{\"tool\": \"swiftlint\", \"baselineVersion\": 1, \"findings\": []}"),
    ])
    func aBaselineThatCannotBeReadStopsTheRunNamingIt(_ name: String, _ content: String?) throws {
        let repository = try Self.repository()
        if let content { try repository.write(Data(content.utf8), to: name) }
        let result = try Self.run(["streams/master.m3u8", "--baseline", name], in: repository.url)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("hlscheck: --baseline \(name): "), "\(result.stderr)")
        #expect(result.stderr.contains("--write-baseline \(name)"))
        #expect(result.stdout.isEmpty)
    }

    @Test func theBaselineIsWrittenAtomicallyAndDeterministically() throws {
        let repository = try Self.repository()
        _ = try Self.run(
            ["streams/master.m3u8", "--write-baseline", "baseline.json", "--jobs", "1"], in: repository.url)
        let first = try Data(contentsOf: repository.url.appendingPathComponent("baseline.json"))
        _ = try Self.run(
            ["streams/master.m3u8", "streams/master.m3u8", "--write-baseline", "baseline.json", "--jobs", "2"],
            in: repository.url)
        _ = try Self.run(
            ["streams/master.m3u8", "--write-baseline", "baseline.json", "--jobs", "2"], in: repository.url)
        #expect(try Data(contentsOf: repository.url.appendingPathComponent("baseline.json")) == first)
        // No temporary file left beside it.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: repository.url.path).sorted() == [
                ".git", "baseline.json", "streams",
            ])
    }

    /// A baseline that cannot be written stops the run with exit code 2, naming the option and
    /// the file; whatever sits at the path is left as it was.
    @Test func aBaselineThatCannotBeWrittenStopsTheRunNamingIt() throws {
        let repository = try Self.repository()
        let missingFolder = try Self.run(
            ["streams/master.m3u8", "--write-baseline", "no-such-folder/baseline.json"], in: repository.url)
        #expect(missingFolder.status == 2)
        #expect(
            missingFolder.stderr.hasSuffix(
                "hlscheck: --write-baseline: no-such-folder/baseline.json: cannot create a file in its folder: No such file or directory\n"
            ), "\(missingFolder.stderr)")
        try FileManager.default.createDirectory(
            at: repository.url.appendingPathComponent("baseline.json"), withIntermediateDirectories: false)
        let folder = try Self.run(["streams/master.m3u8", "--write-baseline", "baseline.json"], in: repository.url)
        #expect(folder.status == 2)
        #expect(
            folder.stderr.contains(
                "hlscheck: --write-baseline: baseline.json: is a folder; only a regular file is replaced, so nothing was written (remove it or choose another path)"
            ), "\(folder.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: repository.path("baseline.json")).isEmpty)
    }

    @Test func moreWarningsThanMaxWarningsFail() throws {
        let repository = try Self.repository()
        let over = try HLSCheckBinary.run(
            ["streams/master.m3u8", "--playlist-only", "--max-warnings", "1"], in: repository.url)
        #expect(over.status == 1)
        #expect(over.stderr.contains("hlscheck: 2 warnings, more than --max-warnings 1 allows"), "\(over.stderr)")
        let within = try HLSCheckBinary.run(
            ["streams/master.m3u8", "--playlist-only", "--max-warnings", "2"], in: repository.url)
        #expect(within.status == 0, "\(within.stderr)")
        // Baselined warnings do not count.
        _ = try HLSCheckBinary.run(
            ["streams/master.m3u8", "--playlist-only", "--write-baseline", "b.json"], in: repository.url)
        let baselined = try HLSCheckBinary.run(
            ["streams/master.m3u8", "--playlist-only", "--max-warnings", "0", "--baseline", "b.json"],
            in: repository.url)
        #expect(baselined.status == 0, "\(baselined.stderr)")
    }
}
