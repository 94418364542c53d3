/// An input that could not be checked at all. The engine files this finding itself when loading
/// the input fails (`CheckReport(input:error:)`): there is no analysed stream for a rule to read,
/// so `check` finds nothing. It is in the catalogue so that every report, `hlscheck rules` and
/// docs/rules.md describe it like any other rule; no setting changes it.
package struct InputUnreadableRule: Rule {
    package static let description = RuleDescription(
        id: "input-unreadable", name: "Input could not be checked", defaultSeverity: .error,
        summary: "An input could not be checked: nothing in it was, and the run exits with code 2.",
        rationale:
            "The input is missing, is not a playlist (a segment, an image, no #EXTM3U at the start), cannot be read (a FIFO, a device, permissions), is unreachable, or lies outside its root. Fix the path or the file, or run `hlscheck inspect` on a segment.",
        configurable: false)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] { [] }
}
