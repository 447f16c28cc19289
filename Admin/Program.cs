using Notifications.Admin;

// The operators' command line: status, dead letters, purge. `admin --help` lists the commands.
return await AdminApp.RunAsync(args, new AdminConsole(Console.In, Console.Out, Console.Error));
