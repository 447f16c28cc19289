using Notifications.Consumer.Settling;

namespace Notifications.UnitTests.Consumer;

public sealed class AckPlanTests
{
    [Fact]
    public void Create_NothingInProgress_OneMultipleAckUpToTheHighestTag()
    {
        var plan = AckPlan.Create([3, 1, 2], lowestInProgress: null);

        Assert.Equal(3ul, plan.MultipleUpTo);
        Assert.Empty(plan.Singles);
    }

    [Fact]
    public void Create_SlowMessageInProgress_PrefixAckedTogetherRestSingly()
    {
        var plan = AckPlan.Create([1, 2, 3, 7, 5], lowestInProgress: 4);

        Assert.Equal(3ul, plan.MultipleUpTo);
        Assert.Equal([5ul, 7ul], plan.Singles);
    }

    [Fact]
    public void Create_AllFinishedTagsAboveTheSlowOne_NoMultipleAck()
    {
        var plan = AckPlan.Create([9, 6], lowestInProgress: 2);

        Assert.Null(plan.MultipleUpTo);
        Assert.Equal([6ul, 9ul], plan.Singles);
    }

    [Fact]
    public void Create_NothingFinished_NothingToSend()
    {
        var plan = AckPlan.Create([], lowestInProgress: 1);

        Assert.Null(plan.MultipleUpTo);
        Assert.Empty(plan.Singles);
    }
}
