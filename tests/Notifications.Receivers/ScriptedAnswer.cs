using System.Net;

namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>
/// How a test server answers instead of its own verdict: a status (with Retry-After when set), that status only after
/// <see cref="Delay"/> (a slow server: a client that gives up first gets none), or never (<see cref="Hang"/>: the request
/// waits until the client gives up or the server stops).
/// </summary>
internal sealed record ScriptedAnswer(HttpStatusCode Status, TimeSpan? RetryAfter = null, bool Hang = false, TimeSpan? Delay = null)
{
    public static ScriptedAnswer Never { get; } = new(HttpStatusCode.RequestTimeout, Hang: true);

    public static ScriptedAnswer With(HttpStatusCode status, TimeSpan? retryAfter = null) => new(status, retryAfter);

    /// <summary><paramref name="status"/>, written <paramref name="delay"/> after the request arrived.</summary>
    public static ScriptedAnswer Late(HttpStatusCode status, TimeSpan delay) => new(status, Delay: delay);
}
