import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import HLSCheck
import HLSEmbedding
import HLSPlaylist
import HLSReporting
import MediaFormats
import MediaInspection
import StreamSources

/// `hlscheck fix PLAYLIST --diff | --output DIR | --in-place`.
struct FixCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fix",
        abstract:
            "Rewrite what the media prove: BANDWIDTH, AVERAGE-BANDWIDTH, CODECS, RESOLUTION, FRAME-RATE, EXTINF, and the header tags.",
        discussion: """
            Measures every segment, then edits the playlists where the measurements prove them wrong \
            or incomplete: BANDWIDTH (the measured peak rounded up to the next 1000 bit/s, never below \
            it) and AVERAGE-BANDWIDTH, CODECS from the bitstream, RESOLUTION, FRAME-RATE, EXTINF, \
            EXT-X-TARGETDURATION, EXT-X-VERSION, EXT-X-PLAYLIST-TYPE:VOD after EXT-X-ENDLIST and \
            EXT-X-INDEPENDENT-SEGMENTS when every segment starts with a keyframe. Each edit names the \
            rule it settles; every other byte stays. What no measurement settles is listed for a \
            person. --diff prints a unified diff, writes nothing and exits 1 when something would \
            change (file names quoted as git quotes them; the playlists' bytes as they are, for \
            patch, or escaped on a terminal); --output and --in-place write as embed does (lock, digest check, atomic renames) \
            and check the result: the exit code is check's (docs/fix.md).
            """
    )

    @Argument(help: "The multivariant or media playlist.")
    var playlist: String

    @Flag(help: "Print the edits as a unified diff; write nothing. Exit 1 when something would change.")
    var diff = false

    @Option(help: "Write a complete copy of the stream, fixed, into this folder.")
    var output: String?

    @Flag(
        name: .customLong("in-place"),
        help:
            "Rewrite the playlists where they are (each swapped in with one rename); a finished stream only (EXT-X-ENDLIST)."
    )
    var inPlace = false

    @Flag(help: "When another hlscheck run is rewriting the same stream, wait for it instead of refusing.")
    var wait = false

    @Option(
        help:
            "The profile the tolerances and the check of the result come from (else the nearest .hlscheck.yml's, else audio-only-64k)."
    )
    var profile: Profile?

    @OptionGroup(title: "Limits and file access")
    var limitOptions: LimitOptions

    func validate() throws {
        if URIScheme.isRemote(playlist) {
            throw ValidationError(
                "fix rewrites a stream's playlists, so it works on local streams only; \(CredentialRedaction.redact(playlist)) is a URL. Download the stream, fix the copy, then publish it; hlscheck check accepts URLs"
            )
        }
        let chosen = [diff, output != nil, inPlace].filter { $0 }.count
        guard chosen == 1 else {
            throw ValidationError(
                chosen == 0
                    ? "say what to do: --diff to see the edits, --output DIR for a fixed copy, or --in-place to fix the stream"
                    : "--diff, --output and --in-place exclude each other: choose one")
        }
    }

    func run() async throws {
        try requireFFmpeg()
        limitOptions.startWatchdog(command: "fix")
        // The tolerances and suppressions of the nearest .hlscheck.yml, as check reads them.
        let file: ConfigurationFile?
        do {
            file = try ConfigurationFile.discover(from: StreamDiscovery.folder(of: playlist))
        } catch {
            printError("hlscheck: \(TerminalText.escaped(error.description))")
            throw ExitCode(2)
        }
        var configuration = CheckConfiguration(profile: profile, file: file)
        limitOptions.apply(to: &configuration)
        var request = FixRequest(
            input: playlist, destination: diff ? nil : output.map { .folder($0) } ?? .inPlace,
            configuration: configuration)
        request.wait = wait
        request.report = { printError("hlscheck: \(TerminalText.escaped($0))") }
        request.writeStepHook = EmbedCommand.testHook()
        let outcome: FixOutcome
        do {
            outcome = try await PlaylistFixer(request).run()
        } catch {
            printError("hlscheck: \(TerminalText.escaped(error.description))")
            throw ExitCode(2)
        }
        if diff {
            // On a terminal the diff is for reading, escaped as check escapes a playlist's text;
            // into a pipe or a file it carries the playlists' bytes, so that patch(1) applies it.
            let forTerminal = isatty(STDOUT_FILENO) == 1
            writeStandardOutput(bytes: outcome.changed.flatMap { $0.unifiedDiff(forTerminal: forTerminal) })
            for changed in outcome.changed {
                for fix in changed.fixes { printError("hlscheck: \(Self.describe(fix, in: changed.file))") }
            }
            for diagnostic in outcome.unfixed { printError("hlscheck: needs a person: \(Self.describe(diagnostic))") }
            if !outcome.changed.isEmpty { throw ExitCode(1) }
            return
        }
        for changed in outcome.changed {
            for fix in changed.fixes { print("fixed \(Self.describe(fix, in: changed.file))") }
        }
        if outcome.changed.isEmpty { print("nothing to fix: the measurements agree with the playlists") }
        for diagnostic in outcome.unfixed { print("needs a person: \(Self.describe(diagnostic))") }
        // In place with nothing to change, nothing was written: the check that follows is of the
        // files as they were.
        if let written = outcome.output, !(inPlace && outcome.changed.isEmpty) {
            print("wrote \(TerminalText.escaped(written))\n")
        }
        if let verification = outcome.verification {
            print(TextReporter(width: Terminal.textWidth(STDOUT_FILENO)).render([verification]), terminator: "")
            if verification.fails(at: .error) { throw ExitCode(1) }
        }
    }

    /// "master.m3u8:3: bandwidth-below-peak: BANDWIDTH=951000 (measured peak 950401 bit/s, …)".
    static func describe(_ fix: PlaylistFix, in file: String) -> String {
        TerminalText.escaped("\(file):\(fix.line): \(fix.rule): \(fix.summary) (\(fix.reason))")
    }

    static func describe(_ diagnostic: Diagnostic) -> String {
        let place = diagnostic.location.map { "\($0.uri):\($0.line): " } ?? ""
        return TerminalText.escaped("\(place)\(diagnostic.rule): \(diagnostic.message)")
    }
}
