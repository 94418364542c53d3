import HLSCheck
import HLSPackaging
import MediaEncoding

// `--fit`: the poster re-encoded smaller when it does not fit the budget, for a poster that
// goes into existing segments and for the one a new audio-only variant carries alike.

/// A request that may re-encode its poster: it names the poster in messages and limits the
/// pixels a decoded image may have.
protocol PosterRefitting {
    var posterName: String { get }
    var configuration: CheckConfiguration { get }
}

extension EmbedRequest: PosterRefitting {}
extension AudioOnlyRequest: PosterRefitting {}

extension PosterRefitting {
    /// What `--fit` went down to before it gave up: "it goes down to JPEG 16x16 (… ) at qscale 31, 612 bytes".
    func fitFloor(_ image: Poster) -> String {
        guard
            let floor = try? ImageFitter.floor(
                image.data, mimeType: image.mimeType, maximumPixels: configuration.limits.imagePixels)
        else {
            return "it goes down to a smallest side of 16 px at qscale 31"
        }
        return "it goes down to \(floor.description)"
    }

    /// The image re-encoded as JPEG of at most `maxBytes` (quality first, then smaller sizes), or
    /// nil when no re-encoding down to the floor fits.
    func reencode(_ image: Poster, maxBytes: Int) throws(EmbedError) -> (poster: Poster, description: String)? {
        let fitted: FittedImage?
        do {
            fitted = try ImageFitter.fit(
                image.data, mimeType: image.mimeType, maxBytes: maxBytes,
                maximumPixels: configuration.limits.imagePixels)
        } catch {
            throw EmbedError("\(posterName) cannot be re-encoded: \(error)")
        }
        guard let fitted else { return nil }
        do {
            return (try Poster(image: fitted.data, description: image.description), fitted.description)
        } catch {
            throw EmbedError("the re-encoded \(posterName) is not usable: \(error.description)")
        }
    }
}
