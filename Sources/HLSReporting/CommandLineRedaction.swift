import StreamSources

/// A command line fit for a report: a SARIF file is uploaded to code-scanning services and kept
/// as a build artefact, so no credential, query token or `--header` value may travel with it.
/// What is hidden is `CredentialRedaction`'s to decide, as for every other output.
package enum CommandLineRedaction {
    /// Each argument redacted (`CredentialRedaction.redactArguments`), quoted for a POSIX shell
    /// where needed, joined by spaces.
    package static func commandLine(_ arguments: [String]) -> String {
        CredentialRedaction.redactArguments(arguments).map(quoted).joined(separator: " ")
    }

    /// `argument` as a POSIX shell reads it back: bare when it holds only safe characters,
    /// otherwise in single quotes.
    static func quoted(_ argument: String) -> String {
        let safe =
            !argument.isEmpty
            && argument.unicodeScalars.allSatisfy { scalar in
                switch scalar {
                case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".", "/", ":", "=", ",", "+", "@", "%": true
                default: false
                }
            }
        return safe ? argument : "'" + argument.replacing("'", with: #"'\''"#) + "'"
    }
}
