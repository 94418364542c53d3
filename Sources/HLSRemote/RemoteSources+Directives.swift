package import StreamSources
import HLSPlaylist

// The probe of delivery directives (bis-22 §6.2.5) judges a 400 as an answer, so it needs the
// status the fetcher saw; its requests are not the stream's and stay out of the delivery log.
extension RemotePlaylistSource: DirectiveSource {
    package func answer(_ uri: String) async -> DirectiveAnswer {
        guard URIScheme.isRemote(uri) else { return DirectiveAnswer(status: nil, failure: "not an http(s) URL") }
        do throws(RemoteFetchError) {
            let resource = try await fetcher.fetch(
                uri, kind: .playlist, maximumBytes: maximumSize, limitFlag: "--max-playlist-bytes", recorded: false)
            return DirectiveAnswer(status: resource.status, bytes: resource.bytes)
        } catch {
            return DirectiveAnswer(status: error.status, failure: error.reason)
        }
    }

    package var answerTimeout: Duration {
        // `--request-timeout` is validated (at most a day); a library caller's value is clamped
        // the same way rather than trapping in the conversion.
        let seconds = fetcher.options.requestTimeoutSeconds
        return .milliseconds(Int64((seconds.isFinite ? min(max(seconds, 0.001), 86_400) : 30) * 1000))
    }
}
