namespace Notifications.Admin.Migrations;

/// <summary>Where one migration stands in a schema's journal.</summary>
internal enum MigrationStatus
{
    /// <summary>In the journal: applied once (a repeatable file: this very text).</summary>
    Applied,

    /// <summary>Not in the journal: the next <c>migrate</c> runs it.</summary>
    Pending,

    /// <summary>A repeatable file whose text changed since it was applied: the next <c>migrate</c> runs it again.</summary>
    Changed,

    /// <summary>In the journal, but this version has no such file (renamed, renumbered, or from a newer version).</summary>
    Unknown,
}

/// <summary>One line of <c>migrate --list</c>: a script's journal name, its status and when it was applied.</summary>
internal sealed record MigrationState(string Name, MigrationStatus Status, DateTime? AppliedAt);
