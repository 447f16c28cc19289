namespace Notifications.Admin;

/// <summary>Where a command reads its confirmation and writes its output; tests pass their own.</summary>
internal sealed record AdminConsole(TextReader In, TextWriter Out, TextWriter Error);
