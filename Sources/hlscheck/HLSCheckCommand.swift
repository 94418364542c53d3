import ArgumentParser
import HLSCheck

/// The root command: configuration only. `hlscheck PLAYLIST` runs `check`, the default subcommand.
@main
struct HLSCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hlscheck",
        abstract: "Check HLS streams for RFC 8216 and Apple compliance, with a focus on the audio-only variant.",
        discussion: """
            Exit codes: 0 nothing at or above --fail-on, 1 findings at or above it, \
            2 the check could not run (unreadable playlist, I/O error), 64 usage error.
            """,
        version: HLSCheckVersion.current,
        subcommands: [CheckCommand.self, EmbedCommand.self, InspectCommand.self, ArtworkCommand.self, RulesCommand.self],
        defaultSubcommand: CheckCommand.self
    )
}
