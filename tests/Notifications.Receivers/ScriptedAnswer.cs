using System.Net;

namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>
/// How a test server answers instead of its own verdict: a status (with Retry-After when set), or never
/// (<see cref="Hang"/>: the request waits until the client gives up or the server stops).
/// </summary>
internal sealed record ScriptedAnswer(HttpStatusCode Status, TimeSpan? RetryAfter = null, bool Hang = false)
{
    public static ScriptedAnswer Never { get; } = new(HttpStatusCode.RequestTimeout, Hang: true);

    public static ScriptedAnswer With(HttpStatusCode status, TimeSpan? retryAfter = null) => new(status, retryAfter);
}
