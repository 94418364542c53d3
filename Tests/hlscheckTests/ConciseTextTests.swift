import Foundation
import TestSupport
import Testing

/// What the text report prints by default — findings, then the summary, as a linter does — and
/// the variant tables `--show-variants` adds, fitted to the terminal.
@Suite struct ConciseTextTests {
    @Test func byDefaultTextIsTheFindingsThenTheSummary() throws {
        let (folder, inputs) = try ConcurrentRunTests.streams()
        let result = try HLSCheckBinary.run(inputs + ["--playlist-only"], in: folder.url)
        #expect(result.status == 2)
        // Five streams, four of them clean: they print nothing of their own. The stream that
        // could not be read is said once (here, not again on standard error).
        #expect(
            result.stdout == """
                warns/master.m3u8:2: warning: variant audio/index.m3u8 has no CODECS attribute [codecs-missing]
                error: missing.m3u8: no such file or folder [input-unreadable]

                What each rule checks and how to fix it: hlscheck rules codecs-missing input-unreadable

                5 streams checked, 1 could not be read: 1 error, 1 warning, 0 notes

                """, "\(result.stdout)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")

        let detailed = try HLSCheckBinary.run(inputs + ["--playlist-only", "--show-variants"], in: folder.url)
        for name in ["c1", "warns", "c2", "c3", "c4"] {
            #expect(detailed.stdout.contains("Variants of \(name)/master.m3u8\n  URI "), "\(detailed.stdout)")
        }
        #expect(detailed.stdout.hasSuffix("\n5 streams checked, 1 could not be read: 1 error, 1 warning, 0 notes\n"))
    }

    @Test func quietAndShowVariantsContradictEachOther() throws {
        let result = try HLSCheckBinary.run(["Samples/compliant/master.m3u8", "--quiet", "--show-variants"])
        #expect(result.status == 64)
        #expect(
            result.stderr.contains("--quiet leaves out the variant tables that --show-variants asks for; choose one"),
            "\(result.stderr)")
    }

    /// `hlscheck ARGS` on a terminal `columns` wide (TERM=dumb: no colour, no progress line); the
    /// screen's lines, without carriage returns.
    static func onTerminal(columns: Int, _ arguments: [String]) throws -> [String] {
        let result = try Terminal.run(arguments, environment: ["TERM": "dumb"], columns: columns, in: PackageRoot.url)
        #expect(result.status == 0, "\(result.stdout)")
        return result.stdout.replacingOccurrences(of: "\r", with: "")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The cells of the one-part table a pipe gets (columns are two or more spaces apart).
    static func cells(_ table: String) -> Set<String> {
        Set(
            table.split(separator: "\n").filter { $0.hasPrefix("  ") }.flatMap { line in
                line.split(separator: #/\s{2,}/#).map { $0.trimmingCharacters(in: .whitespaces) }
            })
    }

    @Test func onAnEightyColumnTerminalTheVariantTableFitsAndLosesNothing() throws {
        let sample = ["Samples/compliant/master.m3u8", "--show-variants"]
        let whole = try HLSCheckBinary.run(sample)
        let wholeWidth = whole.stdout.split(separator: "\n").map(\.count).max() ?? 0
        #expect(wholeWidth > 80, "the sample's table is wider than 80 columns in a pipe: \(whole.stdout)")

        let screen = try Self.onTerminal(columns: 80, sample)
        let tooWide = screen.filter { $0.count > 80 }
        #expect(tooWide.isEmpty, "\(tooWide)")
        // Split into parts, one below the other, each led by the URI column…
        let headers = screen.filter { $0.hasPrefix("  URI ") }
        #expect(headers.count > 1, "\(screen)")
        #expect(screen.filter { $0.hasPrefix("  audio/index.m3u8 ") }.count == headers.count)
        // …holding every cell of the whole table.
        let shown = screen.joined(separator: "\n")
        let missing = Self.cells(whole.stdout).filter { !shown.contains($0) }
        #expect(missing.isEmpty, "\(missing)")
        #expect(screen.contains("1 stream checked: 0 errors, 0 warnings, 0 notes"))
    }

    @Test func columnsSetsTheWidthInAPipeToo() throws {
        let result = try HLSCheckBinary.run(
            ["Samples/compliant/master.m3u8", "--show-variants"], environment: ["COLUMNS": "100"])
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 100 }, "\(result.stdout)")
        #expect(lines.filter { $0.hasPrefix("  URI ") }.count > 1, "\(result.stdout)")
        #expect(
            Self.cells(result.stdout)
                == Self.cells(try HLSCheckBinary.run(["Samples/compliant/master.m3u8", "--show-variants"]).stdout))
    }
}
