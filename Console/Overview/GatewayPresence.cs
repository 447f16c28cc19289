using Notifications.Shared.Observability;

namespace Notifications.OperatorConsole.Overview;

/// <summary>What one gateway's <c>/presence</c> answered, or that it did not (<see cref="NoAnswer"/> says why).</summary>
/// <param name="Name">The worker as configured.</param>
/// <param name="Subscribers">The subscribers connected to it.</param>
/// <param name="Connections">Their connections.</param>
/// <param name="Listed">The first of them by id (<see cref="PresenceJson.MaxListed"/>).</param>
/// <param name="NoAnswer">Why there is no reading.</param>
internal sealed record GatewayPresence(string Name, int Subscribers, long Connections, IReadOnlyList<PresenceReading> Listed, string? NoAnswer)
{
    public static GatewayPresence Silent(string name, string why) => new(name, 0, 0, [], why);
}
