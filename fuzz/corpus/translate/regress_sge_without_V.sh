#$ -N x
#$ -v A=1,B
echo
