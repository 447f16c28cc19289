namespace Notifications.Shared.Data.Audiences;

/// <summary>A contact point as read back: an email address or a push device (<c>fcm:&lt;token&gt;</c>, <c>apns:&lt;token&gt;</c>).</summary>
public sealed record ContactPointEntry
{
    /// <summary>email or push.</summary>
    public string Channel { get; init; } = "";

    /// <summary>The lower-case address, or the push recipient.</summary>
    public string Address { get; init; } = "";

    /// <summary>The device's app id, if the app gave one.</summary>
    public string? AppId { get; init; }

    /// <summary>When the app last registered the device (UTC); null for an email address.</summary>
    public DateTime? LastSeenAt { get; init; }

    /// <summary>When the provider said the token is gone (UTC); null while it is alive.</summary>
    public DateTime? DeadAt { get; init; }

    /// <summary>The provider's answer that made it dead.</summary>
    public string? DeadReason { get; init; }
}
