import Hummingbird

/// The listener's answer to a path it does not serve: a 404 that says where pushes go, since a
/// URL without `/push` is the usual slip, and a bodiless 404 left a new user guessing.
struct PathNotFound: RouterMiddleware {
    typealias Context = PushRequestContext

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            return PushEndpoint.json(.notFound, PushEndpoint.Failure(
                error: "\(request.uri.path) is not here: pushes go to POST /push, and GET /health says how the listener is"))
        }
    }
}
