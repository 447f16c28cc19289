namespace Notifications.Client;

/// <summary>Which channels the deliveries of a notification to a subscriber or a topic may use (docs/fan-out.md).</summary>
[Flags]
public enum AudienceChannels
{
    /// <summary>Every live email address of each subscriber.</summary>
    Email = 1,

    /// <summary>Every live push device of each subscriber.</summary>
    Push = 2,
}
