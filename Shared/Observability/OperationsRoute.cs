using Microsoft.AspNetCore.Http;

namespace Notifications.Shared.Observability;

/// <summary>
/// A path a worker adds to its <see cref="OperationsEndpoint"/> besides metrics and health (registered as a singleton),
/// e.g. the consumer's one-click unsubscribe. The handler gets every method; it answers what it does not accept.
/// </summary>
/// <param name="Path">The exact path, e.g. <c>/unsubscribe</c>.</param>
/// <param name="Handler">What answers it.</param>
public sealed record OperationsRoute(string Path, RequestDelegate Handler);
