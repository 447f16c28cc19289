using Notifications.Client;
using SharedStatus = Notifications.Shared.Data.NotificationStatus;

namespace Notifications.UnitTests.Client;

/// <summary>The client's typed status names every state the schema's notification_status function answers.</summary>
public sealed class NotificationStateTests
{
    [Fact]
    public void StateOf_EveryStateTheFunctionAnswers_HasItsOwnValue()
    {
        var states = SharedStatus.States.Select(NotificationStatus.StateOf).ToList();

        Assert.DoesNotContain(NotificationState.Other, states);
        Assert.Equal(states.Count, states.Distinct().Count());
        Assert.Equal(Enum.GetValues<NotificationState>().Length - 1, states.Count);
    }

    [Theory]
    [InlineData("waiting", NotificationState.Waiting)]
    [InlineData("in_flight", NotificationState.InFlight)]
    [InlineData("maybe_sent", NotificationState.MaybeSent)]
    [InlineData("dead_lettered", NotificationState.DeadLettered)]
    [InlineData("unknown", NotificationState.Unknown)]
    [InlineData("bounced", NotificationState.Bounced)]
    [InlineData("complained", NotificationState.Complained)]
    [InlineData("a_state_of_a_newer_database", NotificationState.Other)]
    public void StateOf_TheDatabasesName_TheEnumValue(string name, NotificationState expected) =>
        Assert.Equal(expected, NotificationStatus.StateOf(name));
}
