using Notifications.Consumer.Relay;
using Notifications.Shared.Contract;

namespace Notifications.Consumer.Channels.Push;

/// <summary>One push service (FCM, APNs): how a notification becomes its request, and how its answers read.</summary>
internal interface IPushProvider
{
    /// <summary>The prefix of its recipients: <c>fcm</c> or <c>apns</c>.</summary>
    string Name { get; }

    /// <summary>Whether it is configured; a row to one that is not is dead-lettered.</summary>
    bool Enabled { get; }

    /// <summary>Its breaker (ungated: while open its messages are parked, the other provider's go on).</summary>
    RelayBreaker Breaker { get; }

    /// <summary>Its base URL's host: the key of its fleet rate limit in <c>RateLimits:Domains</c>.</summary>
    string Host { get; }

    /// <summary>Its Retry-After in this process.</summary>
    ProviderPause Pause { get; }

    /// <summary>Its HTTP/2 client, shared by every handler.</summary>
    HttpClient Client { get; }

    /// <summary>The exact request body of <paramref name="message"/>, or null and why it cannot be sent.</summary>
    PushNotification? Prepare(NotificationMessage message, string token, IReadOnlyList<KeyValuePair<string, string>> data, out string? refused);

    /// <summary>The request for <paramref name="push"/> carrying <paramref name="content"/>, with its credentials.</summary>
    ValueTask<HttpRequestMessage> CreateRequestAsync(PushNotification push, HttpContent content, CancellationToken cancellationToken);

    /// <summary>The provider's reason in an error answer's body, or null.</summary>
    string? ReasonOf(string body);

    /// <summary>Whether the answer says the device token is no longer valid.</summary>
    bool IsGone(int status, string? reason);
}
