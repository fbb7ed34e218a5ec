DROP TABLE deleted_player_names;
