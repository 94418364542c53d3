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
        subcommands: [
            CheckCommand.self, FixCommand.self, EmbedCommand.self, InspectCommand.self, ArtworkCommand.self,
            RulesCommand.self,
        ],
        defaultSubcommand: CheckCommand.self
    )

    /// swift-argument-parser's entry point, except that the completion scripts gain what the
    /// generated ones lack (BashCompletion, ZshCompletion, FishCompletion): paths for the default
    /// subcommand, and in bash `--output FORMAT=PATH`.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let shell = completionShell(arguments) {
            let generated = completionScript(for: shell)
            switch shell {
            case .zsh: print(ZshCompletion.script(generated, root: self), terminator: "")
            case .fish: print(FishCompletion.script(generated, root: self), terminator: "")
            default: print(generated + BashCompletion.defaultSubcommand(root: self), terminator: "")
            }
            return
        }
        do {
            var command = try await asyncParseAsRoot(EmbedCommand.withDefaultPosterTime(arguments))
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .validationFailure, let message = betterSuggestion(fullMessage(for: error)) {
                printError(message)
                exitProcess(ExitCode.validationFailure.rawValue)
            }
            exit(withError: error)
        }
    }

    /// The shell of `--generate-completion-script SHELL` (or `=SHELL`) when that is all the
    /// command line says; nil otherwise (swift-argument-parser reports a shell it does not know).
    static func completionShell(_ arguments: [String]) -> CompletionShell? {
        let option = "--generate-completion-script"
        let name =
            arguments.count == 2 && arguments[0] == option
            ? arguments[1]
            : arguments.count == 1 && arguments[0].hasPrefix(option + "=")
                ? String(arguments[0].dropFirst(option.count + 1))
                : nil
        return name.flatMap { CompletionShell(rawValue: $0) }
    }

    /// swift-argument-parser suggests the option nearest by edit distance, so `--budget` got
    /// `--quiet`; an option whose name starts with what was typed (`--budget-kbps`) is the one
    /// meant. `message` rewritten with it, or nil to keep it as it is.
    static func betterSuggestion(_ message: String) -> String? {
        guard let match = message.firstMatch(of: /Unknown option '(--[A-Za-z0-9-]+)'(\. Did you mean '[^']*'\?)?/)
        else { return nil }
        let typed = String(match.1)
        // The subcommand the usage line names, else check (the default).
        let name = message.firstMatch(of: /Usage: hlscheck ([a-z]+)/).map { String($0.1) } ?? "check"
        guard let subcommand = configuration.subcommands.first(where: { $0.configuration.commandName == name }) else {
            return nil
        }
        let options = Set(
            helpMessage(for: subcommand, columns: 1000).matches(of: /--[a-z0-9][a-z0-9-]*/).map { String($0.0) })
        guard
            let meant = options.filter({ $0.hasPrefix(typed + "-") || ($0.hasPrefix(typed) && $0 != typed) })
                .min(by: { ($0.count, $0) < ($1.count, $1) })
        else { return nil }
        var rewritten = message
        rewritten.replaceSubrange(match.range, with: "Unknown option '\(typed)'. Did you mean '\(meant)'?")
        return rewritten
    }
}

extension HLSCheckCommand {
    /// The subcommand `word` is probably a typo of: the nearest name within edit distance 2
    /// (`inpsect` → `inspect`); nil for anything that looks like a path or a URL.
    static func suggestion(for word: String) -> String? {
        guard !word.isEmpty, !word.contains("/"), !word.contains("."), !word.contains(":") else { return nil }
        let names = configuration.subcommands.compactMap { $0.configuration.commandName }
        let scored = names.map { ($0, editDistance(word.lowercased(), $0)) }.filter { $0.1 <= 2 }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// Levenshtein distance, with a transposition counted as one edit (`inpsect`, `inspect`).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
