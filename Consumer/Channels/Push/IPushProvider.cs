using Notifications.Shared.Contract;

namespace Notifications.Consumer.Channels.Push;

/// <summary>One push service (FCM, APNs): how a notification becomes its request, and how its answers read.</summary>
internal interface IPushProvider
{
    /// <summary>The prefix of its recipients: <c>fcm</c> or <c>apns</c>.</summary>
    string Name { get; }

    /// <summary>Whether it is configured; a row to one that is not is dead-lettered.</summary>
    bool Enabled { get; }

    /// <summary>Its client, breaker, rate-limit host and Retry-After pause.</summary>
    ProviderLink Link { get; }

    /// <summary>The exact request body of <paramref name="message"/>, or null and why it cannot be sent.</summary>
    PushNotification? Prepare(NotificationMessage message, string token, IReadOnlyList<KeyValuePair<string, string>> data, out string? refused);

    /// <summary>The request for <paramref name="push"/> carrying <paramref name="content"/>, with its credentials.</summary>
    ValueTask<HttpRequestMessage> CreateRequestAsync(PushNotification push, HttpContent content, CancellationToken cancellationToken);

    /// <summary>The provider's reason in an error answer's body, or null.</summary>
    string? ReasonOf(string body);

    /// <summary>
    /// The provider refused our credentials (401, 403) on a request that carried <paramref name="request"/>'s: drop them if they
    /// are still the current ones, so the next request carries fresh ones (a revoked or expired token heals on the next attempt).
    /// </summary>
    void CredentialsRefused(HttpRequestMessage request, string? reason);

    /// <summary>Whether the answer says the device token is no longer valid.</summary>
    bool IsGone(int status, string? reason);
}
