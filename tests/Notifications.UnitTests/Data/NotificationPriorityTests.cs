using Notifications.Shared.Data;

namespace Notifications.UnitTests.Data;

public sealed class NotificationPriorityTests
{
    [Theory]
    [InlineData(NotificationPriority.Urgent, "urgent")]
    [InlineData(NotificationPriority.Normal, "normal")]
    [InlineData(NotificationPriority.Bulk, "bulk")]
    public void ToColumn_EachDefinedValue_IsTheValueTheCheckConstraintAllows(NotificationPriority priority, string column) =>
        Assert.Equal(column, priority.ToColumn());

    [Fact]
    public void ToColumn_UndefinedValue_ThrowsNamingTheAllowedValues()
    {
        var refused = Assert.Throws<ArgumentOutOfRangeException>(() => ((NotificationPriority)3).ToColumn());

        Assert.Contains("'urgent', 'normal', 'bulk'", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void OutboxLanes_UrgentFirstThenNormalThenBulk_AndTheLanesSplitThem()
    {
        Assert.Equal([NotificationPriority.Urgent, NotificationPriority.Normal, NotificationPriority.Bulk], OutboxLanes.All);
        Assert.Equal(OutboxLanes.All, OutboxLanes.Urgent.Concat(OutboxLanes.Standard));
    }
}
