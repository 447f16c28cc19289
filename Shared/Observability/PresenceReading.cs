namespace Notifications.Shared.Observability;

/// <summary>A subscriber connected to a gateway, and with how many connections (apps, tabs).</summary>
public sealed record PresenceReading(string Subscriber, int Connections);
