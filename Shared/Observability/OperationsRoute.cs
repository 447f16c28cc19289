using Microsoft.AspNetCore.Http;

namespace Notifications.Shared.Observability;

/// <summary>
/// A path a worker adds to its <see cref="OperationsEndpoint"/> besides metrics and health (registered as a singleton),
/// e.g. the consumer's one-click unsubscribe. The handler gets every method; it answers what it does not accept.
/// </summary>
/// <param name="Path">The path, mapped by endpoint routing as a route pattern (a literal such as <c>/unsubscribe</c>).</param>
/// <param name="Handler">What answers it.</param>
public sealed record OperationsRoute(string Path, RequestDelegate Handler);
