DROP TABLE table_leases;
DROP TABLE server_processes;
