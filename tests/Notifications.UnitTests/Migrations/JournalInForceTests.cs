using Notifications.Admin.Migrations;

namespace Notifications.UnitTests.Migrations;

/// <summary>What the journal says is in force: every numbered file, and of a repeatable file the text run last.</summary>
public sealed class JournalInForceTests
{
    private static readonly DateTime At = new(2026, 11, 29, 8, 0, 0, DateTimeKind.Unspecified);

    [Fact]
    public void Of_RepeatableRunNewerThenOlderThenNewer_OnlyTheLastRowOfEachFileIsInForce()
    {
        (string, DateTime)[] rows =
        [
            ("001_outbox.sql", At), ("repeatable/90_roles.sql@aaaaaaaaaaaa", At.AddMinutes(1)), ("002_log.sql", At.AddMinutes(2)),
            ("repeatable/90_roles.sql@bbbbbbbbbbbb", At.AddMinutes(3)), ("repeatable/10_status.sql@cccccccccccc", At.AddMinutes(4)),
            ("repeatable/90_roles.sql@aaaaaaaaaaaa", At.AddMinutes(5)),
        ];

        var inForce = JournalInForce.Of(rows);

        Assert.Equal(
            ["001_outbox.sql", "002_log.sql", "repeatable/10_status.sql@cccccccccccc", "repeatable/90_roles.sql@aaaaaaaaaaaa"],
            inForce.Keys.Order(StringComparer.Ordinal));
        Assert.Equal(At.AddMinutes(5), inForce["repeatable/90_roles.sql@aaaaaaaaaaaa"]);
    }

    [Fact]
    public void Of_NoJournal_NothingInForce() => Assert.Empty(JournalInForce.Of([]));
}
